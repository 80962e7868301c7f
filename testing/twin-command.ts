import { startTwin } from "./twin.ts";

// `npm run -s twin`: a throwaway twin for a test suite or a person; prints where it is, its
// admin token and fresh credentials as one JSON line, and serves until Ctrl+C (or SIGTERM).
// PORT and GUILDHALL_TWIN_TOKEN choose the port and the admin token.
const twin = await startTwin({ port: process.env.PORT ? Number(process.env.PORT) : undefined, token: process.env.GUILDHALL_TWIN_TOKEN });
process.stdout.write(`${JSON.stringify(twin.info)}\n`);
const end = () => void twin.stop().finally(() => process.exit(0));
process.once("SIGINT", end);
process.once("SIGTERM", end);
