import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { serveCdn } from "~/server/images/cdn.ts";

export const dynamic = "force-dynamic";
export const GET = fetchHandler(serveCdn);
