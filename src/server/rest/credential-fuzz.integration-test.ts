// The routes that authenticate their caller from the request body, fuzzed deeper than the route
// table's fuzz test can: that one sends them JSON, which the token endpoints refuse before
// reading anything, and client ids that name no application. Here the token and revoke
// endpoints get form bodies (well-formed and broken encodings, duplicate and prototype-named
// keys, every grant type) with real and made-up codes, refresh tokens, client credentials and
// Authorization headers, and the partner SDK's credential routes get a real client with an OIDC
// identity provider (a JWKS server of the test's own) and id_tokens signed right and wrong.
// No answer is a 5xx, every refusal is an OAuth2 error or the platform's envelope, and a
// refused request changes nothing but what the protocol says it spends (a code presented).
// FUZZ_SEED and FUZZ_RUNS as in route-fuzz.integration-test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "~/server/applications/application.service.ts";
import { setIdentityProvider } from "~/server/partner-sdk/identity-providers.ts";
import { s256Challenge } from "~/server/oauth2/pkce.ts";
import { installChangeLog, type ChangeLog } from "~/test/change-log.ts";
import { oauth2Kit, REDIRECT_URI } from "~/test/oauth2-kit.ts";
import type { RestResponse } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { brokenJson, NASTY_STRINGS, PROTOTYPE_KEYS } from "~/test/zod-arbitrary.ts";
import { afterCommitWorkDone } from "~/server/events/change.ts";

const app = useTestApp({ rateLimitScale: 1_000_000 });
const kit = oauth2Kit(app);
const SEED = process.env.FUZZ_SEED === "random" ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
/** Per route: requests, accepted, refused, answers >= 500. */
const tally: Record<string, [number, number, number, number]> = {};

const ISSUER = "https://id.fuzz.example";
const AUDIENCE = "fuzz-game";
const KID = "fuzz-key";
const VERIFIER = "v".repeat(43);

let changes: ChangeLog;
let jwks: Server;
let world: Awaited<ReturnType<typeof buildWorld>>;

/** A confidential client with an OIDC identity provider, a public client, a user, and keys to sign id_tokens with. */
async function buildWorld() {
  const own = await generateKeyPair("RS256");
  const stranger = await generateKeyPair("RS256");
  const body = JSON.stringify({ keys: [{ ...(await exportJWK(own.publicKey)), kid: KID, alg: "RS256", use: "sig" }] });
  jwks = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  const confidential = await kit.client();
  const pub = await kit.client({ publicClient: true });
  await setIdentityProvider({ db: app.db, actor: null }, confidential.id, {
    type: "OIDC",
    issuer: ISSUER,
    audience: AUDIENCE,
    jwks_uri: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/keys`,
  });
  const user = await createUser(app.db, { username: `fuzz_${Date.now()}` });
  return { confidential, pub, user, keys: { own: own.privateKey, stranger: stranger.privateKey } };
}

beforeAll(async () => {
  changes = await installChangeLog(app.db, app.url);
  world = await buildWorld();
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => jwks.close(() => resolve()));
  for (const [path, [requests, accepted, refused, serverErrors]] of Object.entries(tally))
    console.log(`credential fuzzing (seed ${SEED}) ${path}: ${requests} requests, ${accepted} accepted, ${refused} refused, ${serverErrors} answers >= 500`);
});

// Values are drawn as placeholders and made real at send time: a code or refresh token is
// spent by the request that carries it, so each request gets its own.
const FRESH_CODE = "<fresh code>";
const FRESH_PUBLIC_CODE = "<fresh code of the public client, with PKCE>";
const USED_CODE = "<a code already exchanged>";
const FRESH_REFRESH = "<fresh refresh token>";
const ACCESS_TOKEN = "<an access token of the client>";
const CONFIDENTIAL_ID = "<the confidential client's id>";
const PUBLIC_ID = "<the public client's id>";
const SECRET = "<the client secret>";
const BASIC = "<Basic with the right credentials>";
const ID_TOKEN = "<an id_token>";

const nasty = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 30 }), fc.constant("a".repeat(20_000)));
const or = <T>(real: fc.Arbitrary<T>) => fc.oneof({ weight: 3, arbitrary: real }, { weight: 1, arbitrary: nasty });

/** Each form parameter the endpoints read, with real values and junk. */
const PARAMS: Record<string, fc.Arbitrary<string>> = {
  grant_type: or(fc.constantFrom("authorization_code", "refresh_token", "client_credentials", "password", "implicit", "AUTHORIZATION_CODE")),
  code: or(fc.constantFrom(FRESH_CODE, FRESH_PUBLIC_CODE, USED_CODE)),
  redirect_uri: or(fc.constantFrom(REDIRECT_URI, `${REDIRECT_URI}/`, "https://evil.example/callback")),
  code_verifier: or(fc.constantFrom(VERIFIER, "w".repeat(43), "short")),
  refresh_token: or(fc.constantFrom(FRESH_REFRESH, ACCESS_TOKEN)),
  scope: or(fc.constantFrom("identify", "identify guilds", "applications.commands.update", "openid email", "bot", "")),
  client_id: or(fc.constantFrom(CONFIDENTIAL_ID, PUBLIC_ID, "0", "99999999999999999999")),
  client_secret: or(fc.constantFrom(SECRET, `${SECRET}x`)),
  token: or(fc.constantFrom(FRESH_REFRESH, ACCESS_TOKEN, USED_CODE)),
  token_type_hint: or(fc.constantFrom("access_token", "refresh_token")),
  external_auth_type: or(fc.constantFrom("OIDC", "DISCORD_BOT_ISSUED_ACCESS_TOKEN", "STEAM_SESSION_TICKET")),
  external_auth_token: or(fc.constantFrom(ID_TOKEN)),
};

/** A form as ordered pairs: the known parameters in any subset, perhaps one twice, perhaps a key of the prototype's. */
const formPairs: fc.Arbitrary<[string, string][]> = fc
  .tuple(fc.record(PARAMS, { requiredKeys: [] }), fc.option(fc.tuple(fc.constantFrom(...Object.keys(PARAMS), ...PROTOTYPE_KEYS), nasty), { freq: 3 }))
  .map(([params, extra]) => [...Object.entries(params).filter((pair): pair is [string, string] => pair[1] !== undefined), ...(extra ? [extra] : [])]);

/** Form bodies no encoder writes. */
const BROKEN_FORMS = [
  "",
  "%",
  "a=%ZZ",
  "=x&&&=",
  "grant_type",
  "grant_type=client_credentials&grant_type=refresh_token",
  "grant_type=client_credentials&client_id=%E0%A4%A&client_secret=%C0%AF",
  "__proto__[x]=1&constructor=2&client_id[]=1",
  "grant_type=client_credentials;client_id=1",
  "a=".padEnd(50_000, "b"),
];

const CONTENT_TYPES = [
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=utf-8",
  "APPLICATION/X-WWW-FORM-URLENCODED",
  "application/x-www-form-urlencodedx",
  "application/json",
  "multipart/form-data; boundary=x",
  "text/plain",
];

const AUTHORIZATIONS = [
  undefined,
  BASIC,
  "Basic ",
  "Basic !!!not-base64!!!",
  `Basic ${Buffer.from("no-colon").toString("base64")}`,
  `Basic ${Buffer.from("%ZZ:%ZZ").toString("base64")}`,
  `Basic ${Buffer.from("1:wrong").toString("base64")}`,
  "Bot not-a-token",
  "Bearer not-a-token",
  "Digest username=x",
];

/** Complete requests of each kind, so the fuzzing also reaches what a grant does; one parameter may then be dropped or broken. */
const TEMPLATES: Record<string, { pairs: [string, string][]; authorization?: string }[]> = {
  "/oauth2/token": [
    {
      pairs: [
        ["grant_type", "authorization_code"],
        ["code", FRESH_CODE],
        ["redirect_uri", REDIRECT_URI],
      ],
      authorization: BASIC,
    },
    {
      pairs: [
        ["grant_type", "authorization_code"],
        ["code", FRESH_CODE],
        ["redirect_uri", REDIRECT_URI],
        ["client_id", CONFIDENTIAL_ID],
        ["client_secret", SECRET],
        ["external_auth_type", "OIDC"],
        ["external_auth_token", ID_TOKEN],
      ],
    },
    {
      pairs: [
        ["grant_type", "authorization_code"],
        ["code", FRESH_PUBLIC_CODE],
        ["redirect_uri", REDIRECT_URI],
        ["client_id", PUBLIC_ID],
        ["code_verifier", VERIFIER],
      ],
    },
    {
      pairs: [
        ["grant_type", "refresh_token"],
        ["refresh_token", FRESH_REFRESH],
        ["scope", "identify"],
      ],
      authorization: BASIC,
    },
    {
      pairs: [
        ["grant_type", "client_credentials"],
        ["scope", "identify"],
      ],
      authorization: BASIC,
    },
  ],
  "/oauth2/token/revoke": [
    { pairs: [["token", FRESH_REFRESH]], authorization: BASIC },
    {
      pairs: [
        ["token", ACCESS_TOKEN],
        ["client_id", CONFIDENTIAL_ID],
        ["client_secret", SECRET],
      ],
    },
  ],
};

const templated = (path: string): fc.Arbitrary<FormRequest> =>
  fc
    .tuple(fc.constantFrom(...TEMPLATES[path]!), fc.nat(), fc.option(fc.oneof(nasty, fc.constant("")), { freq: 2 }), fc.boolean())
    .map(([template, at, value, twice]) => {
      const pairs = template.pairs.map((pair): [string, string] => [...pair]);
      const i = at % pairs.length;
      if (value !== null) pairs[i]![1] = value;
      if (twice) pairs.push([pairs[i]![0], pairs[i]![1]]);
      return { path, pairs, authorization: template.authorization };
    });

type FormRequest = { path: string; pairs: [string, string][]; raw?: string; contentType?: string; authorization?: string };

const formRequests = (path: string): fc.Arbitrary<FormRequest> =>
  fc.oneof(
    { weight: 3, arbitrary: templated(path) },
    { weight: 4, arbitrary: fc.record({ path: fc.constant(path), pairs: formPairs, authorization: fc.constantFrom(...AUTHORIZATIONS) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        path: fc.constant(path),
        pairs: formPairs,
        contentType: fc.constantFrom(...CONTENT_TYPES),
        authorization: fc.constantFrom(...AUTHORIZATIONS),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        path: fc.constant(path),
        pairs: fc.constant<[string, string][]>([]),
        raw: fc.constantFrom(...BROKEN_FORMS),
        authorization: fc.constantFrom(...AUTHORIZATIONS),
      }),
    },
  );

/** id_tokens: signed right, or by another key, or with claims and headers changed; and text that is no JWT. */
type TokenSpec =
  | { kind: "text"; text: string }
  | { kind: "signed"; key: "own" | "stranger"; kid: unknown; claims: Record<string, unknown> }
  | { kind: "unsigned"; header: Record<string, unknown> };

const claimValue = fc.oneof(fc.constantFrom(ISSUER, AUDIENCE, "player-1", "", [AUDIENCE, "other"], null, 0, -1, 2 ** 53, 1e308), nasty);
const tokenSpecs: fc.Arbitrary<TokenSpec> = fc.oneof(
  { weight: 2, arbitrary: fc.constant<TokenSpec>({ kind: "signed", key: "own", kid: KID, claims: {} }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("signed" as const),
      key: fc.constantFrom("own" as const, "stranger" as const),
      kid: fc.oneof(fc.constant(KID), fc.constantFrom("", "other", 7, null, { kid: KID }, "k".repeat(5000))),
      claims: fc.record(
        {
          iss: fc.oneof(fc.constant(ISSUER), claimValue),
          aud: fc.oneof(fc.constant(AUDIENCE), claimValue),
          sub: fc.oneof(fc.constant("player-1"), claimValue),
          iat: fc.oneof(fc.constantFrom("now", "future", "old"), claimValue),
          exp: fc.oneof(fc.constantFrom("soon", "past"), claimValue),
          nbf: claimValue,
          preferred_username: claimValue,
        },
        { requiredKeys: [] },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("unsigned" as const),
      header: fc.constantFrom(
        { alg: "none", kid: KID },
        { alg: "HS256", kid: KID },
        { alg: "RS256", kid: KID, crit: ["x"] },
        { alg: "RS256", kid: KID, jku: "http://127.0.0.1:1/x" },
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("text" as const),
      text: fc.oneof(nasty, fc.constantFrom("a.b.c", "..", "eyJhbGciOiJub25lIn0..", "eyJ9.eyJ9.eyJ9", "x".repeat(10_000))),
    }),
  },
);

let players = 0;
const brief = (text: string, max = 60) => (text.length <= max ? text : `${text.slice(0, max - 20)}… (${text.length} chars)`);
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The id_token a spec describes. */
async function tokenOf(spec: TokenSpec): Promise<string> {
  if (spec.kind === "text") return spec.text;
  const now = Math.floor(Date.now() / 1000);
  if (spec.kind === "unsigned") return `${b64(spec.header)}.${b64({ iss: ISSUER, aud: AUDIENCE, sub: "p", iat: now, exp: now + 60 })}.${b64("sig")}`;
  const times: Record<string, number> = { now, future: now + 86_400, old: now - 30 * 86_400, soon: now + 3600, past: now - 60 };
  const claims = Object.fromEntries(
    Object.entries(spec.claims).map(([name, value]) => [name, typeof value === "string" && value in times ? times[value] : value]),
  );
  // A player of its own unless the claims name one: a player merged into a full account signs in through OAuth2 only (530010).
  const payload = { iss: ISSUER, aud: AUDIENCE, sub: `player-${++players}`, iat: now, exp: now + 3600, ...claims };
  // As JSON would carry it (jose clones the claims, and generated objects need not be plain).
  return new SignJWT(JSON.parse(JSON.stringify(payload)) as Record<string, unknown>)
    .setProtectedHeader({ alg: "RS256", ...(spec.kid === null ? {} : { kid: spec.kid as string }) })
    .sign(spec.key === "own" ? world.keys.own : world.keys.stranger);
}

/** A code approved now for a client: the confidential one, or the public one with a PKCE challenge. */
function freshCode(isPublic: boolean): Promise<string> {
  const client = isPublic ? world.pub : world.confidential;
  return kit.approve(client.id, world.user.id, ["identify", "sdk.social_layer"], isPublic ? { codeChallenge: s256Challenge(VERIFIER) } : {});
}

/** A token pair exchanged from a fresh code, and the code it was exchanged from. */
async function freshGrant(): Promise<{ code: string; refresh: string; access: string }> {
  const code = await freshCode(false);
  const res = await kit.post("/oauth2/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI }, world.confidential.basic);
  if (res.status !== 200) throw new Error(`a fresh grant answered ${res.status} ${JSON.stringify(res.body)}`);
  return { code, refresh: res.body.refresh_token as string, access: res.body.access_token as string };
}

/** The request's placeholders made real; what it spends, for the refused-changes-nothing rule. */
async function materialize(text: string, idToken: () => Promise<string>): Promise<{ value: string; spends: readonly string[] }> {
  switch (text) {
    case FRESH_CODE:
      return { value: await freshCode(false), spends: ["OAuth2Code"] };
    case FRESH_PUBLIC_CODE:
      return { value: await freshCode(true), spends: ["OAuth2Code"] };
    // RFC 6749 4.1.2: a code presented twice revokes what it gave.
    case USED_CODE:
      return { value: (await freshGrant()).code, spends: ["OAuth2Code", "Token", "Event"] };
    case FRESH_REFRESH:
      return { value: (await freshGrant()).refresh, spends: [] };
    case ACCESS_TOKEN:
      return { value: (await freshGrant()).access, spends: [] };
    case CONFIDENTIAL_ID:
      return { value: world.confidential.id, spends: [] };
    case PUBLIC_ID:
      return { value: world.pub.id, spends: [] };
    case SECRET:
      return { value: world.confidential.secret, spends: [] };
    case BASIC:
      return { value: world.confidential.basic, spends: [] };
    case ID_TOKEN:
      return { value: await idToken(), spends: [] };
    default:
      return { value: text, spends: [] };
  }
}

const OAUTH2_ERRORS = ["invalid_request", "invalid_client", "invalid_grant", "unauthorized_client", "unsupported_grant_type", "invalid_scope"];
const isOAuth2Error = (body: unknown) =>
  typeof body === "object" &&
  body !== null &&
  OAUTH2_ERRORS.includes((body as { error?: string }).error ?? "") &&
  typeof (body as { error_description?: unknown }).error_description === "string";
const isEnvelope = (body: unknown) =>
  typeof body === "object" &&
  body !== null &&
  typeof (body as { code?: unknown }).code === "number" &&
  typeof (body as { message?: unknown }).message === "string";

/** What was wrong with one answer: a 5xx, a refusal in neither error shape, or rows a refusal changed beyond what it spends. */
async function problemsOf(
  path: string,
  what: string,
  send: () => Promise<RestResponse>,
  spends: ReadonlySet<string>,
  errorShape: (body: unknown) => boolean,
): Promise<string[]> {
  await afterCommitWorkDone();
  const mark = await changes.mark();
  const res = await send();
  const counts = (tally[path] ??= [0, 0, 0, 0]);
  counts[0] += 1;
  counts[res.status >= 500 ? 3 : res.status >= 400 ? 2 : 1] += 1;
  const answer = `${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
  if (res.status >= 500) return [`${answer} for ${what}`];
  if (res.status < 400) return [];
  const problems: string[] = [];
  if (!errorShape(res.body)) problems.push(`refused in neither error shape: ${answer} for ${what}`);
  const changed = Object.keys(await changes.since(mark)).filter((table) => !spends.has(table));
  if (changed.length > 0) problems.push(`refused with ${answer}, yet ${changed.join(", ")} changed: ${what}`);
  return problems;
}

async function sendForm(request: FormRequest, idToken: () => Promise<string>): Promise<string[]> {
  const spends = new Set<string>();
  const real = async (text: string) => {
    const made = await materialize(text, idToken);
    for (const table of made.spends) spends.add(table);
    return made.value;
  };
  const pairs: [string, string][] = [];
  for (const [name, value] of request.pairs) pairs.push([name, await real(value)]);
  const authorization = request.authorization === undefined ? undefined : await real(request.authorization);
  const rawBody = request.raw ?? new URLSearchParams(pairs).toString();
  const headers = { "content-type": request.contentType ?? "application/x-www-form-urlencoded" };
  const shown = request.raw === undefined ? request.pairs.map(([name, value]) => `${name}=${brief(value)}`).join("&") : brief(request.raw);
  const what = `${request.path} [${request.authorization ?? "no Authorization"}] [${headers["content-type"]}] ${shown}`;
  // The endpoints answer OAuth2 errors; a body refused before they read it (too large, a broken form) is the platform's envelope.
  return problemsOf(
    request.path,
    what,
    () => app.as(authorization).post(request.path, undefined, { headers, rawBody }),
    spends,
    (body) => isOAuth2Error(body) || isEnvelope(body),
  );
}

describe("the token endpoints take any form without failing", () => {
  const paths = ["/oauth2/token", "/oauth2/token/revoke"];
  paths.forEach((path, index) => {
    it(`POST ${path}`, { timeout: 300_000 }, async () => {
      const problems: string[] = [];
      const specs = fc.sample(tokenSpecs, { numRuns: RUNS, seed: SEED + 200 + index });
      const requests = fc.sample(formRequests(path), { numRuns: RUNS, seed: SEED + 210 + index });
      for (const [i, request] of requests.entries()) problems.push(...(await sendForm(request, () => tokenOf(specs[i]!))));
      expect(problems).toEqual([]);
    });
  });

  it("takes the right form once, so the fuzzing reaches what a grant does", async () => {
    const code = await freshCode(false);
    const body = {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: world.confidential.id,
      client_secret: world.confidential.secret,
    };
    const res = await kit.post("/oauth2/token", body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const again = await kit.post("/oauth2/token", body);
    expect(again.body.error).toBe("invalid_grant");
  });
});

describe("the partner SDK's credential routes take any body without failing", () => {
  const fields = {
    client_id: or(fc.constantFrom(CONFIDENTIAL_ID, PUBLIC_ID)),
    client_secret: fc.oneof(or(fc.constantFrom(SECRET)), fc.constant(null)),
    external_auth_type: or(fc.constantFrom("OIDC", "DISCORD_BOT_ISSUED_ACCESS_TOKEN", "EPIC_ONLINE_SERVICES_ID_TOKEN")),
    external_auth_token: fc.constant(ID_TOKEN),
  };
  // The right body with at most one field changed, or any mix of the fields.
  const right = { client_id: CONFIDENTIAL_ID, client_secret: SECRET, external_auth_type: "OIDC", external_auth_token: ID_TOKEN };
  const nearlyRight = fc
    .option(
      fc.constantFrom(...(Object.keys(fields) as (keyof typeof fields)[])).chain((name) => fields[name].map((value) => ({ [name]: value }))),
      { freq: 2 },
    )
    .map((change) => ({ ...right, ...change }));
  const bodies = fc.oneof(nearlyRight, fc.record(fields, { requiredKeys: ["external_auth_token"] }));
  const paths = ["/partner-sdk/token", "/partner-sdk/provisional-accounts/unmerge"];
  paths.forEach((path, index) => {
    it(`POST ${path}`, { timeout: 300_000 }, async () => {
      const problems: string[] = [];
      const specs = fc.sample(tokenSpecs, { numRuns: RUNS, seed: SEED + 300 + index });
      const sampled = fc.sample(
        fc.oneof({ weight: 3, arbitrary: bodies.map((body) => ({ body })) }, { weight: 1, arbitrary: brokenJson(bodies).map((raw) => ({ raw })) }),
        {
          numRuns: RUNS,
          seed: SEED + 310 + index,
        },
      );
      for (const [i, sample] of sampled.entries()) {
        const idToken = () => tokenOf(specs[i]!);
        let rawBody: string;
        if ("raw" in sample) {
          // The broken piece stays as sent; the placeholders around it are made real inside their JSON strings.
          rawBody = sample.raw;
          for (const placeholder of [CONFIDENTIAL_ID, PUBLIC_ID, SECRET, ID_TOKEN])
            if (rawBody.includes(placeholder))
              rawBody = rawBody.replaceAll(placeholder, JSON.stringify((await materialize(placeholder, idToken)).value).slice(1, -1));
        } else {
          const made: Record<string, unknown> = {};
          for (const [name, value] of Object.entries(sample.body)) made[name] = typeof value === "string" ? (await materialize(value, idToken)).value : value;
          rawBody = JSON.stringify(made);
        }
        const what = `${path} ${brief(rawBody, 300)}`;
        // A provisional account made by an accepted exchange is what it does; a refusal changes nothing.
        const send = () => app.as().post(path, undefined, { headers: { "content-type": "application/json" }, rawBody });
        problems.push(...(await problemsOf(path, what, send, new Set(), isEnvelope)));
      }
      expect(problems).toEqual([]);
    });
  });

  it("takes a right id_token, so the fuzzing reaches what verifying one does", async () => {
    const idToken = await tokenOf({ kind: "signed", key: "own", kid: KID, claims: {} });
    const res = await app.as().post("/partner-sdk/token", {
      client_id: world.confidential.id,
      client_secret: world.confidential.secret,
      external_auth_type: "OIDC",
      external_auth_token: idToken,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});
