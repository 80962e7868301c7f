// The discovery documents as server.ts serves them, outside /api and without the dashboard.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "~/test/server-process.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
let server: ServerProcess;

beforeAll(async () => {
  server = await startServerProcess({ DATABASE_URL: app.url });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe("well-known documents on the server process (REST only)", () => {
  it("serves RFC 8414 metadata and OpenID discovery with the server's public origin as issuer", async () => {
    const metadata = await fetch(`${server.origin}/.well-known/oauth-authorization-server`);
    expect(metadata.status).toBe(200);
    expect(metadata.headers.get("content-type")).toBe("application/json");
    expect(await metadata.json()).toMatchObject({ issuer: server.origin, token_endpoint: `${server.origin}/api/oauth2/token` });
    const oidc = await fetch(`${server.origin}/.well-known/openid-configuration`);
    expect(await oidc.json()).toMatchObject({ issuer: server.origin, userinfo_endpoint: `${server.origin}/api/oauth2/userinfo` });
    // Other well-known paths are not the authorization server's.
    expect((await fetch(`${server.origin}/.well-known/security.txt`)).status).toBe(404);
  });
});
