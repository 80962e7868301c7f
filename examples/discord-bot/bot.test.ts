import { RESTJSONErrorCodes, Routes, type APIChannel, type APIMessage } from "discord-api-types/v10";
import type { Client } from "discord.js";
import { Events } from "discord.js";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startTwin, type Snapshot, type Twin, type TwinError } from "../../testing/twin.ts";
import { startBot } from "./bot.ts";

// The example bot (bot.ts) against a test twin this file starts: each test begins from the
// same world (a snapshot restored while the bot stays connected), a user posts, the bot
// answers; the clock expires an invite; a 429 the bot must survive.

let twin: Twin;
let bot: Client<true>;
let world: Snapshot;
let channelId: string;

/** A REST call as the bot, the way any HTTP client would make it. */
async function asBot<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${twin.info.base_url}/v10${path}`, { headers: { authorization: `Bot ${twin.info.bot_token}` } });
  return { status: response.status, body: (await response.json()) as T };
}

/** The bot's reply to a message, once it has been posted (waits for it, as long as a loaded machine needs). */
function replyTo(message: { id: string }): Promise<APIMessage> {
  return vi.waitFor(
    async () => {
      const { body } = await asBot<APIMessage[]>(`${Routes.channelMessages(channelId)}?limit=20`);
      const reply = body.find((candidate) => candidate.message_reference?.message_id === message.id);
      if (!reply) throw new Error(`no reply to ${message.id} yet`);
      return reply;
    },
    { timeout: 30_000, interval: 100 },
  );
}

beforeAll(async () => {
  twin = await startTwin();
  const { body: channels } = await asBot<APIChannel[]>(Routes.guildChannels(twin.info.guild_id));
  channelId = channels.find((channel) => channel.type === 0)!.id;
  world = await twin.snapshot("a bot, a user and their guild");
  bot = await startBot({ token: twin.info.bot_token, api: twin.info.base_url });
});

afterAll(async () => {
  await bot?.destroy();
  await twin?.stop();
});

beforeEach(async () => {
  // The bot stays connected: the twin tells its session to reconnect, and it identifies anew.
  const ready = new Promise((resolve) => bot.once(Events.ShardReady, resolve));
  await twin.restore(world);
  await ready;
});

afterEach(async () => {
  await twin.faults.clear();
  await twin.clearCalls(twin.info.application_id);
});

describe("the example bot", () => {
  it("answers a user's !ping with pong", async () => {
    const ping = await twin.people.say(channelId, twin.info.user_id, { content: "!ping" });
    const reply = await replyTo(ping);
    expect(reply.content).toBe("pong");
    expect(reply.author.id).toBe(twin.info.bot_user_id);
  });

  it("makes invites that expire when the clock passes a minute", async () => {
    const ask = await twin.people.say(channelId, twin.info.user_id, { content: "!invite" });
    const code = /one minute: (\S+)/.exec((await replyTo(ask)).content)?.[1];
    expect(code).toBeDefined();
    expect((await asBot(Routes.invite(code!))).status).toBe(200);

    await twin.clock.advance(61_000);

    const gone = await asBot<{ code: number }>(Routes.invite(code!));
    expect(gone).toEqual({ status: 404, body: expect.objectContaining({ code: RESTJSONErrorCodes.UnknownInvite }) });
    const newcomer = await twin.people.createUser({ username: "newcomer" });
    await expect(twin.people.acceptInvite(code!, newcomer.user.id)).rejects.toMatchObject({ status: 404 } satisfies Partial<TwinError>);
  });

  it("survives a 429 on sending its answer", async () => {
    const fault = await twin.faults.add({
      match: { method: "POST", route: "/channels/:channelId/messages", application_id: twin.info.application_id },
      effect: { type: "rate_limit", retry_after: 1 },
      times: 1,
    });
    const ping = await twin.people.say(channelId, twin.info.user_id, { content: "!ping" });
    expect((await replyTo(ping)).content).toBe("pong");

    expect((await twin.faults.list()).find((rule) => rule.id === fault.id)).toMatchObject({ hits: 1, remaining: 0 });
    // What the bot did, as the twin recorded it: refused once, then sent after retry_after.
    const { calls } = await twin.calls(twin.info.application_id, { kind: "rest" });
    const sends = calls.filter((call) => call.route === "POST /channels/:channelId/messages");
    expect(sends.map((call) => call.status)).toEqual([429, 200]);
  });
});
