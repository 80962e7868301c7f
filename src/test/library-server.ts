import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { REST } from "@discordjs/rest";
import { afterAll, beforeAll } from "vitest";
import { serveNode } from "~/server/http/node-adapter.ts";
import type { TestApp } from "./test-app.ts";

/**
 * Serves the test app's REST API over real HTTP for a test file, so the platform's own
 * client library can be pointed at it unchanged: `client(token)` is such a client.
 */
export function useLibraryServer(app: TestApp): { client(token?: string, authPrefix?: "Bot" | "Bearer"): REST } {
  let server: Server;
  let api = "";
  beforeAll(async () => {
    server = createServer((req, res) => serveNode(app.handler, req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    client(token, authPrefix = "Bot") {
      const rest = new REST({ api, version: "10", retries: 0, authPrefix });
      return token ? rest.setToken(token) : rest;
    },
  };
}
