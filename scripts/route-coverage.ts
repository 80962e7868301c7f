// Writes docs/route-coverage.md from the route table (src/server/rest/route-coverage.ts).
import { writeFileSync } from "node:fs";
import { routeCoverage, routeCoverageMarkdown } from "~/server/rest/route-coverage.ts";
import { ROUTES } from "~/server/rest/routes.ts";

writeFileSync(new URL("../docs/route-coverage.md", import.meta.url), routeCoverageMarkdown(routeCoverage(ROUTES)));
