import { GatewayDispatchEvents as E, GatewayIntentBits as I, PermissionFlagsBits as P, type APIReaction } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { addMember, writeGuildState } from "~/test/factories.ts";
import { MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

const READER = P.ViewChannel | P.ReadMessageHistory;
const THUMBS = encodeURIComponent("👍");
const HEART = encodeURIComponent("❤️");

async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, 0n);
  const message = (await base.api.post(`/channels/${base.text.id}/messages`, { content: "Lunch: pizza or tacos?" })).body.id as string;
  const reactions = `/channels/${base.text.id}/messages/${message}/reactions`;
  return { ...base, message, reactions };
}

type ReactionView = Pick<APIReaction, "emoji" | "count" | "me">;
const view = (body: { reactions?: APIReaction[] }): ReactionView[] => (body.reactions ?? []).map(({ emoji, count, me }) => ({ emoji, count, me }));

describe("reactions", () => {
  it("adds and removes the caller's own, counted on the message with `me` for each reader, in the order first added", async () => {
    const { guild, text, api, owner, message, reactions } = await setup();
    const voter = await kit.addBotWithRole(guild.id, READER | P.AddReactions, 1);

    expect((await api.put(`${reactions}/${THUMBS}/@me`)).status).toBe(204);
    expect((await voter.api.put(`${reactions}/${HEART}/@me`)).status).toBe(204);
    expect((await voter.api.put(`${reactions}/${THUMBS}/@me`)).status).toBe(204);
    // Twice is once.
    expect((await voter.api.put(`${reactions}/${THUMBS}/@me`)).status).toBe(204);

    const mine = (await api.get(`/channels/${text.id}/messages/${message}`)).body;
    expect(view(mine)).toEqual([
      { emoji: { id: null, name: "👍" }, count: 2, me: true },
      { emoji: { id: null, name: "❤️" }, count: 1, me: false },
    ]);
    expect(mine.reactions[0]).toMatchObject({ count_details: { burst: 0, normal: 2 }, burst_colors: [], me_burst: false });
    const [listed] = (await voter.api.get(`/channels/${text.id}/messages?limit=1`)).body;
    expect(view(listed).map((r) => r.me)).toEqual([true, true]);

    const added = await kit.eventsOf(guild.id, E.MessageReactionAdd);
    expect(added).toHaveLength(3);
    expect(added[0]).toMatchObject({
      user_id: owner.user.id,
      channel_id: text.id,
      message_id: message,
      guild_id: guild.id,
      emoji: { id: null, name: "👍" },
      message_author_id: owner.user.id,
      member: { user: { id: owner.user.id } },
      burst: false,
      type: 0,
    });

    expect((await voter.api.delete(`${reactions}/${THUMBS}/@me`)).status).toBe(204);
    expect((await voter.api.delete(`${reactions}/${THUMBS}/@me`)).status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.MessageReactionRemove)).toMatchObject([
      { user_id: voter.user.id, emoji: { id: null, name: "👍" }, message_id: message },
    ]);
    expect(view((await voter.api.get(`/channels/${text.id}/messages/${message}`)).body)).toEqual([
      { emoji: { id: null, name: "👍" }, count: 1, me: false },
      { emoji: { id: null, name: "❤️" }, count: 1, me: true },
    ]);
  });

  it("lists who reacted by user id, with after and limit; super reactions (type 1) none", async () => {
    const { guild, api, reactions } = await setup();
    const voters = [];
    for (let i = 0; i < 3; i++) voters.push(await kit.addBotWithRole(guild.id, READER | P.AddReactions, i + 1));
    for (const voter of voters) await voter.api.put(`${reactions}/${THUMBS}/@me`);
    const ids = voters.map((voter) => voter.user.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));

    const all = (await api.get(`${reactions}/${THUMBS}`)).body as { id: string }[];
    expect(all.map((user) => user.id)).toEqual(ids);
    expect(((await api.get(`${reactions}/${THUMBS}?limit=2`)).body as { id: string }[]).map((user) => user.id)).toEqual(ids.slice(0, 2));
    expect(((await api.get(`${reactions}/${THUMBS}?after=${ids[0]}`)).body as { id: string }[]).map((user) => user.id)).toEqual(ids.slice(1));
    expect((await api.get(`${reactions}/${THUMBS}?type=1`)).body).toEqual([]);
    expect((await api.get(`${reactions}/${HEART}`)).body).toEqual([]);
    expect((await api.get(`${reactions}/${THUMBS}?limit=101`)).status).toBe(400);
  });

  it("needs ADD_REACTIONS for a new emoji only, READ_MESSAGE_HISTORY always, and MANAGE_MESSAGES for others' reactions", async () => {
    const { guild, api, owner, reactions } = await setup();
    const reader = await kit.addBotWithRole(guild.id, READER, 1);
    const blind = await kit.addBotWithRole(guild.id, P.ViewChannel | P.AddReactions, 2);
    const moderator = await kit.addBotWithRole(guild.id, READER | P.ManageMessages, 3);

    expect((await reader.api.put(`${reactions}/${THUMBS}/@me`)).body).toEqual(MISSING_PERMISSIONS);
    await api.put(`${reactions}/${THUMBS}/@me`);
    expect((await reader.api.put(`${reactions}/${THUMBS}/@me`)).status).toBe(204);
    expect((await blind.api.put(`${reactions}/${THUMBS}/@me`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await blind.api.get(`${reactions}/${THUMBS}`)).body).toEqual(MISSING_PERMISSIONS);

    expect((await reader.api.delete(`${reactions}/${THUMBS}/${owner.user.id}`)).body).toEqual(MISSING_PERMISSIONS);
    // One's own by id needs nothing more.
    expect((await reader.api.delete(`${reactions}/${THUMBS}/${reader.user.id}`)).status).toBe(204);
    expect((await reader.api.delete(reactions)).body).toEqual(MISSING_PERMISSIONS);
    expect((await reader.api.delete(`${reactions}/${THUMBS}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await moderator.api.delete(`${reactions}/${THUMBS}/${owner.user.id}`)).status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.MessageReactionRemove)).toHaveLength(2);
  });

  it("removes every reaction, or every one of an emoji, with one event each", async () => {
    const { guild, text, api, message, reactions } = await setup();
    for (const emoji of [THUMBS, HEART]) await api.put(`${reactions}/${emoji}/@me`);
    expect((await api.delete(`${reactions}/${HEART}`)).status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.MessageReactionRemoveEmoji)).toEqual([
      { channel_id: text.id, message_id: message, guild_id: guild.id, emoji: { id: null, name: "❤️" } },
    ]);
    expect(view((await api.get(`/channels/${text.id}/messages/${message}`)).body).map((r) => r.emoji.name)).toEqual(["👍"]);
    expect((await api.delete(reactions)).status).toBe(204);
    // Nothing left: no second event.
    expect((await api.delete(reactions)).status).toBe(204);
    expect(await kit.eventsOf(guild.id, E.MessageReactionRemoveAll)).toEqual([{ channel_id: text.id, message_id: message, guild_id: guild.id }]);
    expect((await api.get(`/channels/${text.id}/messages/${message}`)).body.reactions).toBeUndefined();
  });

  it("answers 10014 for what is no emoji or a custom emoji the caller cannot use, 30010 past 20 emojis, 10008 for another channel's message", async () => {
    const { guild, text, api, message, reactions } = await setup();
    expect((await api.put(`${reactions}/thumbsup/@me`)).body).toMatchObject({ code: 10014, message: "Unknown Emoji" });
    expect((await api.put(`${reactions}/${encodeURIComponent("nope:123456789012345678")}/@me`)).body).toMatchObject({ code: 10014 });

    const twenty = ["😀", "😁", "😂", "🤣", "😃", "😄", "😅", "😆", "😉", "😊", "😋", "😎", "😍", "😘", "🥰", "😗", "😙", "🥲", "😚", "🙂"];
    for (const emoji of twenty) expect((await api.put(`${reactions}/${encodeURIComponent(emoji)}/@me`)).status).toBe(204);
    const full = await api.put(`${reactions}/${encodeURIComponent("🤗")}/@me`);
    expect([full.status, full.body.code]).toEqual([400, 30010]);
    expect((await api.get(`/channels/${text.id}/messages/${message}`)).body.reactions).toHaveLength(20);

    const elsewhere = (await api.post(`/guilds/${guild.id}/channels`, { name: "elsewhere" })).body.id as string;
    expect((await api.put(`/channels/${elsewhere}/messages/${message}/reactions/${THUMBS}/@me`)).body.code).toBe(10008);
  });

  it("takes a custom emoji as name:id from the guild, from another guild with USE_EXTERNAL_EMOJIS, and the application's own", async () => {
    const { guild, text, api, owner, message, reactions } = await setup();
    const other = await kit.setup();
    const emoji = async (data: { guildId?: string; applicationId?: string; name: string; animated?: boolean }) => {
      const id = String(BigInt(message) + BigInt(Math.floor(Math.random() * 1e6)));
      await writeGuildState(app.db, data.guildId ?? guild.id, (tx) => tx.emoji.create({ data: { id, ...data, image: `emojis/${id}` } }));
      return { id, path: `${reactions}/${encodeURIComponent(`${data.name}:${id}`)}/@me` };
    };
    const parrot = await emoji({ guildId: guild.id, name: "party_parrot", animated: true });
    const elsewhere = await emoji({ guildId: other.guild.id, name: "far_away" });
    const own = await emoji({ applicationId: owner.application.id, name: "app_logo" });
    const stranger = await emoji({ guildId: (await kit.setup()).guild.id, name: "strangers" });
    const member = await kit.addBotWithRole(guild.id, READER | P.AddReactions, 1);
    await addMember(app.db, other.guild.id, member.user.id);

    expect((await member.api.put(parrot.path)).status).toBe(204);
    expect((await kit.eventsOf(guild.id, E.MessageReactionAdd)).at(-1)).toMatchObject({ emoji: { id: parrot.id, name: "party_parrot", animated: true } });
    expect((await member.api.put(elsewhere.path)).body).toEqual(MISSING_PERMISSIONS);
    expect((await member.api.put(own.path)).body.code).toBe(10014);
    expect((await member.api.put(stranger.path)).body.code).toBe(10014);
    expect((await api.put(own.path)).status).toBe(204);

    expect(view((await api.get(`/channels/${text.id}/messages/${message}`)).body)).toEqual([
      { emoji: { id: parrot.id, name: "party_parrot", animated: true }, count: 1, me: false },
      { emoji: { id: own.id, name: "app_logo", animated: false }, count: 1, me: true },
    ]);
    expect(((await api.get(`${reactions}/${encodeURIComponent(`party_parrot:${parrot.id}`)}`)).body as { id: string }[]).map((u) => u.id)).toEqual([
      member.user.id,
    ]);
  });

  it("goes to sessions with GUILD_MESSAGE_REACTIONS that see the channel, never to one without", async () => {
    const { guild, api, owner, reactions } = await setup();
    const watcher = await kit.addBotWithRole(guild.id, READER, 1);
    const { client: listening } = await identified(server, watcher.token, { intents: I.Guilds | I.GuildMessageReactions });
    const { client: deaf } = await identified(server, watcher.token, { intents: I.Guilds | I.GuildMessages });

    await api.put(`${reactions}/${THUMBS}/@me`);
    expect((await listening.dispatch(E.MessageReactionAdd)).d).toMatchObject({ user_id: owner.user.id, emoji: { name: "👍" } });
    await api.delete(`${reactions}/${THUMBS}/@me`);
    expect((await listening.dispatch(E.MessageReactionRemove)).d).toMatchObject({ user_id: owner.user.id });
    // A message after them reaches the other session: no reaction event came before it.
    await api.post(`${reactions.split("/messages/")[0]}/messages`, { content: "done" });
    const frames = await deaf.framesThrough((frame) => frame.t === E.MessageCreate, E.MessageCreate);
    expect(frames.map((frame) => frame.t)).not.toContain(E.MessageReactionAdd);
  });
});
