import { startTwinServer } from "./twin-server.ts";

// A throwaway twin as a process of its own (testing/twin.ts bundles and starts this file):
// prints its TwinInfo as one JSON line on stdout once it serves, and stops on SIGTERM or
// SIGINT, or when stdin ends, so a test runner that dies takes its twin with it.
// GUILDHALL_TWIN_TOKEN and PORT choose the admin token and the port.
const port = process.env.PORT ? Number(process.env.PORT) : undefined;
const twin = await startTwinServer({ port, token: process.env.GUILDHALL_TWIN_TOKEN });
process.stdout.write(`${JSON.stringify(twin.info)}\n`);
const stop = () => void twin.stop().finally(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
process.stdin.once("end", stop);
process.stdin.resume();
