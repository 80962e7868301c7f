import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayClient } from "~/test/gateway-kit.ts";
import { until } from "~/test/until.ts";
import { CallRecorder, type GatewayCall, type RecordedCall, type RestCall } from "./call-recorder.ts";
import type { TwinServer } from "~/server/twin/twin-server.ts";
import { startTestTwin } from "~/test/twin-kit.ts";

type Calls = { calls: RecordedCall[]; next_after: number };

describe("the call recorder", () => {
  let twin: TwinServer;
  const asBot = () => ({ authorization: `Bot ${twin.info.bot_token}` });
  const api = (path: string, init: RequestInit = {}) => fetch(`${twin.info.base_url}/v10${path}`, init);
  const calls = async (query = "") => {
    const response = await fetch(`${twin.info.twin_url}/applications/${twin.info.application_id}/calls${query}`, {
      headers: { authorization: `Twin ${twin.info.twin_token}` },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as Calls;
  };
  const clear = () =>
    fetch(`${twin.info.twin_url}/applications/${twin.info.application_id}/calls`, {
      method: "DELETE",
      headers: { authorization: `Twin ${twin.info.twin_token}` },
    });
  const restCalls = async (query = "") => (await calls(`?kind=rest&limit=500${query}`)).calls as RestCall[];

  beforeAll(async () => {
    twin = await startTestTwin();
  });
  afterAll(async () => {
    await twin.stop();
  });

  it("records the bot's REST calls with their route, status, bucket, sizes and bodies, errors included", async () => {
    expect((await clear()).status).toBe(204);
    const me = await api("/users/@me", { headers: asBot() });
    expect(me.status).toBe(200);
    const unknown = await api("/channels/1/messages", { headers: asBot() });
    expect(unknown.status).toBe(404);
    const tooLong = JSON.stringify({ name: "x".repeat(101) });
    const invalid = await api(`/guilds/${twin.info.guild_id}/channels`, {
      method: "POST",
      headers: { ...asBot(), "content-type": "application/json" },
      body: tooLong,
    });
    expect(invalid.status).toBe(400);
    const invalidBody = await invalid.text();

    const [ok, notFound, refused] = await restCalls();
    expect(ok).toMatchObject({
      kind: "rest",
      method: "GET",
      path: "/api/v10/users/@me",
      route: "GET /users/@me",
      status: 200,
      actor: "bot",
      user_id: twin.info.bot_user_id,
      request_bytes: 0,
      request_body: null,
      bucket: { name: "GET /users/@me", hash: me.headers.get("x-ratelimit-bucket") },
    });
    expect(ok!.response_bytes).toBe(Number(me.headers.get("content-length") ?? (await me.clone().arrayBuffer()).byteLength));
    expect(JSON.parse(ok!.response_body!.text!)).toMatchObject({ id: twin.info.bot_user_id, bot: true });
    expect(ok!.duration_ms).toBeGreaterThan(0);
    expect(Date.parse(ok!.at)).not.toBeNaN();

    expect(notFound).toMatchObject({ route: "GET /channels/:channelId/messages", status: 404 });
    expect(JSON.parse(notFound!.response_body!.text!)).toEqual({ code: 10003, message: "Unknown Channel" });

    expect(refused).toMatchObject({ method: "POST", route: "POST /guilds/:guildId/channels", status: 400, request_bytes: tooLong.length });
    expect(JSON.parse(refused!.request_body!.text!)).toEqual({ name: "x".repeat(101) });
    expect(refused!.response_body!.text).toBe(invalidBody);
    expect(JSON.parse(invalidBody)).toMatchObject({ code: 50035, errors: { name: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH" }] } } });
  });

  it("records a path no route serves under the caller's application, and nothing for callers without one", async () => {
    await clear();
    expect((await api("/no-such-route", { headers: asBot() })).status).toBe(404);
    expect((await api("/users/@me")).status).toBe(401);
    expect((await api("/users/@me", { headers: { authorization: "Bot not-a-token" } })).status).toBe(401);
    expect(await restCalls()).toEqual([expect.objectContaining({ path: "/api/v10/no-such-route", route: null, status: 404 })]);
  });

  it("records a bearer call of the user under the application the token was granted to", async () => {
    await clear();
    expect((await api("/users/@me", { headers: { authorization: `Bearer ${twin.info.user_bearer}` } })).status).toBe(200);
    expect(await restCalls()).toEqual([expect.objectContaining({ actor: "bearer", user_id: twin.info.user_id, status: 200 })]);
  });

  it("keeps a large body's first 8 KiB, marked truncated", async () => {
    await clear();
    const body = JSON.stringify({ name: "y".repeat(20_000) });
    await api(`/guilds/${twin.info.guild_id}/channels`, { method: "POST", headers: { ...asBot(), "content-type": "application/json" }, body });
    const [call] = await restCalls();
    expect(call).toMatchObject({ request_bytes: body.length, request_body: { truncated: true } });
    expect(call!.request_body!.text).toBe(body.slice(0, 8192));
  });

  it("pages with after, filters by status class, and clears", async () => {
    await clear();
    for (let i = 0; i < 3; i++) await api("/users/@me", { headers: asBot() });
    await api("/channels/1", { headers: asBot() });
    const first = await calls("?limit=2");
    // Without after: the latest two, oldest first.
    expect(first.calls.map((call) => (call as RestCall).path)).toEqual(["/api/v10/users/@me", "/api/v10/channels/1"]);
    const all = await calls("?after=0&limit=3");
    expect(all.calls).toHaveLength(3);
    const rest = await calls(`?after=${all.next_after}`);
    expect(rest.calls.map((call) => call.id)).toEqual([first.calls[1]!.id]);
    expect((await calls(`?after=${rest.next_after}`)).calls).toEqual([]);
    expect((await calls("?status=4xx")).calls.map((call) => (call as RestCall).status)).toEqual([404]);
    expect((await calls("?status=2xx")).calls).toHaveLength(3);

    const bad = await fetch(`${twin.info.twin_url}/applications/${twin.info.application_id}/calls?limit=501&status=3xx`, {
      headers: { authorization: `Twin ${twin.info.twin_token}` },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 50035, errors: { limit: expect.anything(), status: expect.anything() } });
    const unknownApplication = await fetch(`${twin.info.twin_url}/applications/1/calls`, { headers: { authorization: `Twin ${twin.info.twin_token}` } });
    expect(await unknownApplication.json()).toMatchObject({ code: 10002 });

    expect((await clear()).status).toBe(204);
    expect((await calls()).calls).toEqual([]);
  });

  it("records a 429 with the bucket that ran out", async () => {
    await clear();
    let limited: Response | undefined;
    // 25 a second per route: a burst runs out even on a slow machine.
    while (!limited) {
      const answers = await Promise.all(Array.from({ length: 40 }, () => api("/users/@me", { headers: asBot() })));
      limited = answers.find((answer) => answer.status === 429);
    }
    const [call] = await restCalls("&status=429");
    expect(call).toMatchObject({ status: 429, bucket: { hash: limited.headers.get("x-ratelimit-bucket") } });
    expect(JSON.parse(call!.response_body!.text!)).toMatchObject({ message: "You are being rate limited." });
  });

  it("records a bot session's frames: HELLO, IDENTIFY with its token redacted, READY, heartbeats and the close", async () => {
    await clear();
    const client = await GatewayClient.connect(`${twin.info.gateway_url}/?v=10&encoding=json`, false);
    await client.waitFor((frame) => frame.op === 10, "HELLO");
    client.identify({ token: twin.info.bot_token });
    const ready = await client.dispatch("READY");
    const sessionId = (ready.d as { session_id: string }).session_id;
    client.send({ op: 1, d: ready.s });
    await client.waitFor((frame) => frame.op === 11, "HEARTBEAT_ACK");
    client.terminate();

    let frames: GatewayCall[] = [];
    await until(async () => {
      frames = (await calls("?kind=gateway&limit=500")).calls as GatewayCall[];
      return frames.some((frame) => frame.close_code !== undefined);
    });
    expect(frames.every((frame) => frame.session_id === sessionId)).toBe(true);
    const summary = frames.map((frame) => [frame.direction, frame.op, frame.t]);
    expect(summary.slice(0, 3)).toEqual([
      ["out", 10, null],
      ["in", 2, null],
      ["out", 0, "READY"],
    ]);
    expect(summary).toContainEqual(["in", 1, null]);
    expect(summary).toContainEqual(["out", 11, null]);
    expect(frames.at(-1)).toMatchObject({ direction: "in", close_code: 1006 });

    const identify = frames[1]!;
    expect(identify.body!.text).not.toContain(twin.info.bot_token);
    expect(JSON.parse(identify.body!.text!)).toMatchObject({ op: 2, d: { token: "[redacted]", intents: 0 } });
    const readyFrame = frames[2]!;
    expect(readyFrame.s).toBe(ready.s);
    expect(readyFrame.bytes).toBeGreaterThan(0);
  });
});

describe("a recorder's ring", () => {
  it("keeps the latest calls of each application, dropping the oldest past its bound", () => {
    const recorder = new CallRecorder(3);
    const call = (path: string) =>
      ({
        kind: "rest",
        method: "GET",
        path,
        route: null,
        status: 200,
        duration_ms: 1,
        bucket: null,
        request_bytes: 0,
        response_bytes: 0,
        request_body: null,
        response_body: null,
        user_id: "1",
        actor: "bot",
      }) as const;
    for (const path of ["/a", "/b", "/c", "/d", "/e"]) recorder.record("app", call(path));
    recorder.record("other", call("/x"));
    const { calls, next_after } = recorder.list("app", { limit: 100, after: 0 });
    expect(calls.map((kept) => (kept as RestCall).path)).toEqual(["/c", "/d", "/e"]);
    expect(calls.map((kept) => kept.id)).toEqual([3, 4, 5]);
    expect(next_after).toBe(5);
    expect(recorder.list("other", { limit: 100 }).calls).toHaveLength(1);
  });
});
