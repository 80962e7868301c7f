import { E2E_DATABASE_URL } from "./e2e-env.ts";
import { freshDatabase } from "./servers.ts";

// Run by the playwright config before the server starts: the server opens its database when
// it starts (its runtime), so the run's fresh, migrated database must exist by then.
await freshDatabase(E2E_DATABASE_URL);
