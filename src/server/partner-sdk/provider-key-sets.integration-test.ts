// An identity provider's key set is fetched once and kept, refetched as jose's remote key sets
// are (an unknown kid after the cooldown, a set past its max age), on a test twin whose clock
// moves, freezes and goes back with a restore.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { startTestTwin } from "~/test/twin-kit.ts";
import { setIdentityProvider } from "./identity-providers.ts";
import { testProvider } from "~/test/test-db.ts";

const ISSUER = "https://id.game.example";
const AUDIENCE = "game-client";
const SECOND = 1000;
const MINUTE = 60 * SECOND;

let twin: TwinServer;
let jwks: Server;
/** What the provider publishes now, and how many times its key set was fetched. */
let published: JWK[] = [];
let fetches = 0;
const keys = new Map<string, { privateKey: CryptoKey; jwk: JWK }>();

beforeAll(async () => {
  twin = await startTestTwin();
  for (const kid of ["key-1", "key-2", "key-3", "key-4"]) {
    const pair = await generateKeyPair("RS256");
    keys.set(kid, { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" } });
  }
  published = [keys.get("key-1")!.jwk];
  jwks = createServer((_, res) => {
    fetches++;
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: published }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  const jwksUri = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/keys`;
  await setIdentityProvider({ db: twin.runtime.db, actor: null }, twin.info.application_id, {
    type: "OIDC",
    issuer: ISSUER,
    audience: AUDIENCE,
    jwks_uri: jwksUri,
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
  await twin.stop();
});

const publish = (...kids: string[]) => (published = kids.map((kid) => keys.get(kid)!.jwk));

/** An id_token signed with `kid`, issued now by the twin's clock (this process's Date). */
function idToken(kid: string, sub = "player-1") {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "RS256", kid })
    .setSubject(sub)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(keys.get(kid)!.privateKey);
}

/** POST /partner-sdk/token with an id_token signed by `kid`: the status and the error code if refused. */
async function exchange(kid: string, sub?: string): Promise<[number, number | undefined]> {
  const response = await fetch(`${twin.info.base_url}/v10/partner-sdk/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: twin.info.application_id,
      client_secret: twin.info.client_secret,
      external_auth_type: "OIDC",
      external_auth_token: await idToken(kid, sub),
    }),
  });
  const body = (await response.json()) as { code?: number };
  return [response.status, body.code];
}

async function twinCall(method: string, path: string, body?: unknown): Promise<{ id: string }> {
  const response = await fetch(`${twin.info.twin_url}${path}`, {
    method,
    headers: { authorization: `Twin ${twin.info.twin_token}`, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  expect(response.status, path).toBeLessThan(300);
  return (await response.json()) as { id: string };
}
const advance = (ms: number) => twinCall("POST", "/clock", { advance_ms: ms });

describe("an identity provider's key set", () => {
  it("is fetched once for many token exchanges, concurrent ones included", async () => {
    expect(await exchange("key-1", "player-1")).toEqual([200, undefined]);
    const together = await Promise.all([exchange("key-1", "player-2"), exchange("key-1", "player-3"), exchange("key-1", "player-1")]);
    expect(together).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
    expect(fetches).toBe(1);
  });

  it("is fetched again for a kid it does not hold only once the cooldown passed since the last fetch", async () => {
    publish("key-1", "key-2");
    const before = fetches;
    // Within 30 s of the last fetch: refused without asking the provider.
    expect(await exchange("key-2")).toEqual([400, 530020]);
    expect(fetches).toBe(before);
    await advance(31 * SECOND);
    expect(await exchange("key-2")).toEqual([200, undefined]);
    expect(fetches).toBe(before + 1);
    // That fetch starts a new cooldown.
    publish("key-1", "key-2", "key-3");
    expect(await exchange("key-3")).toEqual([400, 530020]);
    expect(fetches).toBe(before + 1);
  });

  it("is fetched again before use once older than ten minutes, the twin's clock frozen or not", async () => {
    await twinCall("POST", "/clock", { frozen: true });
    const before = fetches;
    await advance(9 * MINUTE);
    expect(await exchange("key-1")).toEqual([200, undefined]);
    expect(fetches).toBe(before);
    await advance(2 * MINUTE);
    expect(await exchange("key-1")).toEqual([200, undefined]);
    expect(fetches).toBe(before + 1);
    // The refetch brought key-3, published meanwhile.
    expect(await exchange("key-3")).toEqual([200, undefined]);
    expect(fetches).toBe(before + 1);
    await twinCall("POST", "/clock", { frozen: false });
  });

  it.runIf(testProvider() === "sqlite")("is not held in a cooldown by a restore that moved the clock back", async () => {
    const taken = await twinCall("POST", "/snapshots", { name: "before-an-hour" });
    await advance(60 * MINUTE);
    expect(await exchange("key-1")).toEqual([200, undefined]);
    const before = fetches;
    publish("key-1", "key-4");
    await twinCall("POST", `/snapshots/${taken.id}/restore`);
    // An hour before the last fetch by the restored clock: no cooldown to wait out.
    expect(await exchange("key-4")).toEqual([200, undefined]);
    expect(fetches).toBe(before + 1);
  });
});
