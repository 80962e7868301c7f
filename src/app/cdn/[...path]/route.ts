import { serveCdn } from "~/server/images/cdn.ts";

export const dynamic = "force-dynamic";
export const GET = serveCdn;
