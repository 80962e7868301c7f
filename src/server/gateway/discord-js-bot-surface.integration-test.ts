import { OverwriteType, PermissionFlagsBits as P, ThreadAutoArchiveDuration } from "discord-api-types/v10";
import { DiscordAPIError, Events, GatewayIntentBits as I, Partials, type Client, type Guild, type TextChannel } from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { modifyChannel } from "~/server/channels/modify-channel.service.ts";
import { openDm } from "~/server/dms/dm.service.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { createRole } from "~/server/roles/role.service.ts";
import { idRangeAt } from "~/server/snowflake/snowflake.ts";
import { collectEvents, discordJsServer, nextEvent, type DiscordJsServer } from "~/test/discord-js-kit.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { PNG } from "~/test/member-kit.ts";
import { startServerProcess } from "~/test/server-process.ts";
import { useTestApp } from "~/test/test-app.ts";

// The calls a community bot makes every day, made with the real discord.js Client against a real
// server: each one's gateway event reaches the bot as the discord.js event it listens for, with
// the intent it needs, and a client without that intent never hears it.

const app = useTestApp();
let djs: DiscordJsServer;
type Bot = Awaited<ReturnType<typeof makeBot>>;
type Person = Awaited<ReturnType<typeof makeUser>>;
let owner: Bot;
let bot: Bot;
let lean: Bot;
/** Shares the guild with the bot, so the bot may message them. */
let person: Person;
/** Shares the guild too, and writes to the bot first. */
let newcomer: Person;
/** Shares no guild with the bot. */
let stranger: Person;
let guildId: string;
let channelId: string;
/** A message from three weeks ago: too old for a bulk delete. */
let oldMessageId: string;

/** The bot under test. */
let client: Client;
/** The guild owner's bot, with the expressions intent: hears what discord.js already emits to the acting client from the REST answer. */
let watcher: Client;
/** Another bot in the guild with Guilds alone, and every partial, so whatever reached it would be emitted. */
let leanClient: Client;

const PNG_BYTES = Buffer.from(PNG.slice(PNG.indexOf(",") + 1), "base64");
const DAY_MS = 24 * 60 * 60 * 1000;

const channel = () => client.channels.cache.get(channelId) as TextChannel;
const guild = (): Guild => client.guilds.cache.get(guildId)!;

let markers = 0;
/**
 * Resolves once the lean client hears a channel update made after what it was not to hear: a
 * session's events arrive in order, so an event on its way would have come before it. The
 * update is made here, as the test's people write their DMs, because the server hears this
 * process's changes through the database, after its own. A channel's, not the guild's: a
 * GUILD_UPDATE carries the guild's emojis and stickers, which discord.js diffs into events.
 */
async function leanHearsALaterEvent(): Promise<void> {
  const topic = `marker ${++markers}`;
  const heard = nextEvent(leanClient, Events.ChannelUpdate, (_old, next) => next.id === channelId && "topic" in next && next.topic === topic);
  await modifyChannel({ db: app.db, actor: owner.actor }, { channelId, body: { topic } });
  await heard;
}

describe("a discord.js bot's everyday calls", () => {
  beforeAll(async () => {
    [owner, bot, lean] = await Promise.all([makeBot(app.db), makeBot(app.db), makeBot(app.db)]);
    [person, newcomer, stranger] = await Promise.all([makeUser(app.db), makeUser(app.db), makeUser(app.db)]);
    await setApprovedIntents({ db: app.db, actor: null }, bot.application.id, ["MESSAGE_CONTENT"], true);
    guildId = (await makeGuild(app.db, owner.actor)).id;
    // What a moderation and utility bot is invited with.
    const moderator = await createRole(
      { db: app.db, actor: owner.actor },
      {
        guildId,
        body: {
          name: "Helper",
          permissions: serializePermissions(
            P.ViewChannel |
              P.SendMessages |
              P.ReadMessageHistory |
              P.AddReactions |
              P.ManageMessages |
              P.PinMessages |
              P.ManageRoles |
              P.ManageThreads |
              P.CreatePublicThreads |
              P.SendMessagesInThreads |
              P.CreateGuildExpressions |
              P.ManageGuildExpressions,
          ),
        },
      },
    );
    await addMember(app.db, guildId, bot.user.id, [moderator.id]);
    for (const id of [lean.user.id, person.user.id, newcomer.user.id]) await addMember(app.db, guildId, id);
    channelId = (await app.db.guild.findUniqueOrThrow({ where: { id: guildId }, select: { systemChannelId: true } })).systemChannelId!;
    oldMessageId = idRangeAt(new Date(Date.now() - 21 * DAY_MS)).first;
    await writeGuildState(app.db, guildId, (tx) =>
      tx.message.create({ data: { id: oldMessageId, channelId, guildId, authorId: owner.user.id, content: "From three weeks ago" } }),
    );

    djs = discordJsServer(await startServerProcess({ DATABASE_URL: app.url, RATE_LIMIT_SCALE: "1000" }));
    [client, watcher, leanClient] = await Promise.all([
      djs.login(bot.token, {
        intents: [I.Guilds, I.GuildMessages, I.MessageContent, I.GuildMessageReactions, I.GuildMessageTyping, I.GuildExpressions, I.DirectMessages],
        // A DM the bot has not opened itself reaches it as a message in an uncached channel.
        partials: [Partials.Channel],
      }),
      djs.login(owner.token, { intents: [I.Guilds, I.GuildExpressions] }),
      djs.login(lean.token, {
        intents: [I.Guilds],
        partials: [Partials.Channel, Partials.Message, Partials.Reaction, Partials.User, Partials.GuildMember, Partials.ThreadMember],
      }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await djs?.stop();
  });

  it("reacts to a message and clears its reactions, heard as messageReactionAdd and messageReactionRemoveAll, never without GuildMessageReactions", async () => {
    const leaked = [collectEvents(leanClient, Events.MessageReactionAdd), collectEvents(leanClient, Events.MessageReactionRemoveAll)];
    const message = await channel().send("Vote: 👍 or 👎");

    const added = nextEvent(client, Events.MessageReactionAdd, (reaction) => reaction.message.id === message.id);
    await message.react("👍");
    const [reaction, user] = await added;
    expect([reaction.emoji.name, reaction.count, reaction.me, user.id]).toEqual(["👍", 1, true, bot.user.id]);

    const cleared = nextEvent(client, Events.MessageReactionRemoveAll, (cleaned) => cleaned.id === message.id);
    await message.reactions.removeAll();
    const [cleaned, removed] = await cleared;
    expect([...removed.keys()]).toEqual(["👍"]);
    expect(cleaned.reactions.cache.size).toBe(0);
    expect((await channel().messages.fetch({ message: message.id, force: true })).reactions.cache.size).toBe(0);

    await leanHearsALaterEvent();
    expect(leaked.map((events) => events.stop())).toEqual([[], []]);
  });

  it("pins a message, heard as channelPinsUpdate with Guilds alone, and finds it with fetchPins", async () => {
    const message = await channel().send("Rules: be kind");
    const heard = nextEvent(client, Events.ChannelPinsUpdate, (pinned) => pinned.id === channelId);
    const heardByLean = nextEvent(leanClient, Events.ChannelPinsUpdate, (pinned) => pinned.id === channelId);
    await message.pin();
    const [[pinned], [pinnedForLean]] = await Promise.all([heard, heardByLean]);
    expect(Math.abs(Date.now() - (pinned as TextChannel).lastPinTimestamp!)).toBeLessThan(60_000);
    expect(pinnedForLean.id).toBe(channelId);

    const pins = await channel().messages.fetchPins();
    expect(pins.items.map((pin) => [pin.message.id, pin.message.content, pin.message.pinned])).toEqual([[message.id, "Rules: be kind", true]]);
    expect(Math.abs(Date.now() - pins.items[0]!.pinnedTimestamp)).toBeLessThan(60_000);
    expect(pins.hasMore).toBe(false);
  });

  it("shows that it is typing, heard as typingStart, never without GuildMessageTyping", async () => {
    const leaked = collectEvents(leanClient, Events.TypingStart);
    const typing = nextEvent(client, Events.TypingStart, (started) => started.user.id === bot.user.id);
    await channel().sendTyping();
    const [started] = await typing;
    expect([started.channel.id, started.guild?.id, started.member?.id]).toEqual([channelId, guildId, bot.user.id]);
    expect(Math.abs(Date.now() - started.startedTimestamp)).toBeLessThan(60_000);

    await leanHearsALaterEvent();
    expect(leaked.stop()).toEqual([]);
  });

  it("fetches a member as a user, opens a DM and messages them, and hears DMs as messageCreate in a DM-based channel, never without DirectMessages", async () => {
    const leaked = collectEvents(leanClient, Events.MessageCreate);
    const recipient = await client.users.fetch(person.user.id);
    expect([recipient.username, recipient.bot]).toEqual([person.user.username, false]);
    const dm = await recipient.createDM();
    expect([dm.isDMBased(), dm.recipientId]).toEqual([true, person.user.id]);

    const ownHeard = nextEvent(client, Events.MessageCreate, (message) => message.channel.isDMBased() && message.author.id === bot.user.id);
    const sent = await recipient.send("Welcome! Answer here if you need help.");
    expect(sent.channelId).toBe(dm.id);
    const [own] = await ownHeard;
    expect([own.id, own.content, own.guildId]).toEqual([sent.id, "Welcome! Answer here if you need help.", null]);

    // The person answers from the dashboard, as people do.
    const answerHeard = nextEvent(client, Events.MessageCreate, (message) => message.channel.isDMBased() && message.author.id === person.user.id);
    await sendMessage({ db: app.db, actor: dashboardActor(person.user.id) }, { channelId: dm.id, body: { content: "Thanks!" }, files: [] });
    const [answer] = await answerHeard;
    expect([answer.channelId, answer.content]).toEqual([dm.id, "Thanks!"]);

    // Someone writes to the bot first: a channel it has not cached, which Partials.Channel lets through.
    const firstHeard = nextEvent(client, Events.MessageCreate, (message) => message.author.id === newcomer.user.id);
    const theirs = await openDm({ db: app.db, actor: dashboardActor(newcomer.user.id) }, { recipient_id: bot.user.id });
    await sendMessage({ db: app.db, actor: dashboardActor(newcomer.user.id) }, { channelId: theirs.id, body: { content: "!help" }, files: [] });
    const [first] = await firstHeard;
    expect([first.channel.isDMBased(), first.channelId, first.content]).toEqual([true, theirs.id, "!help"]);
    const reply = await first.reply("Commands: !help, !rules");
    expect(reply.channelId).toBe(theirs.id);

    // The same person writes to the lean bot, which has no DirectMessages intent.
    const toLean = await openDm({ db: app.db, actor: dashboardActor(newcomer.user.id) }, { recipient_id: lean.user.id });
    await sendMessage({ db: app.db, actor: dashboardActor(newcomer.user.id) }, { channelId: toLean.id, body: { content: "hello?" }, files: [] });
    await leanHearsALaterEvent();
    expect(leaked.stop()).toEqual([]);
  });

  it("cannot message a user who shares no guild with it: DiscordAPIError 50007", async () => {
    const lonely = await client.users.fetch(stranger.user.id);
    const refused = await lonely.send("Hello there").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect((refused as DiscordAPIError).code).toBe(50007);
  });

  it("bulk deletes messages younger than 14 days, heard as messageDeleteBulk; filterOld leaves the older one, without it the purge is refused (50034)", async () => {
    const young = [await channel().send("spam 1"), await channel().send("spam 2"), await channel().send("spam 3")];
    const old = await channel().messages.fetch(oldMessageId);
    expect(old.content).toBe("From three weeks ago");

    const refused = await channel()
      .bulkDelete([...young, old])
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DiscordAPIError);
    expect((refused as DiscordAPIError).code).toBe(50034);

    const youngIds = young.map((message) => message.id).sort();
    const purged = nextEvent(client, Events.MessageBulkDelete, (_messages, purgedIn) => purgedIn.id === channelId);
    const deleted = await channel().bulkDelete([...young, old], true);
    expect([...deleted.keys()].sort()).toEqual(youngIds);
    const [messages] = await purged;
    expect([...messages.keys()].sort()).toEqual(youngIds);
    const left = await channel().messages.fetch({ limit: 100 });
    expect(youngIds.filter((id) => left.has(id))).toEqual([]);
    expect(left.has(oldMessageId)).toBe(true);
  });

  it("sets and deletes a member's permission overwrite, heard as channelUpdate", async () => {
    const member = await guild().members.fetch(person.user.id);
    const set = nextEvent(
      client,
      Events.ChannelUpdate,
      (_old, next) => next.id === channelId && (next as TextChannel).permissionOverwrites.cache.has(member.id),
    );
    await channel().permissionOverwrites.edit(member, { SendMessages: false, AddReactions: false }, { reason: "Cooling down" });
    const [, withOverwrite] = await set;
    const overwrite = (withOverwrite as TextChannel).permissionOverwrites.cache.get(member.id)!;
    expect([overwrite.type, overwrite.allow.bitfield, overwrite.deny.toArray().sort()]).toEqual([OverwriteType.Member, 0n, ["AddReactions", "SendMessages"]]);
    // The overwrite holds: the person can no longer write there.
    const muted = await sendMessage({ db: app.db, actor: dashboardActor(person.user.id) }, { channelId, body: { content: "hi" }, files: [] }).catch(
      (error: unknown) => error,
    );
    expect(muted).toMatchObject({ code: 50013 });

    const removed = nextEvent(
      client,
      Events.ChannelUpdate,
      (_old, next) => next.id === channelId && !(next as TextChannel).permissionOverwrites.cache.has(member.id),
    );
    await channel().permissionOverwrites.delete(member, "Cooled down");
    await removed;
    expect(channel().permissionOverwrites.cache.has(member.id)).toBe(false);
  });

  it("starts a thread from a message, heard as threadCreate, and finds it among the public archived threads once archived", async () => {
    const starter = await channel().send("Release 2.0: feedback here");
    const created = nextEvent(leanClient, Events.ThreadCreate, (thread) => thread.parentId === channelId && thread.name === "2.0 feedback");
    const thread = await starter.startThread({ name: "2.0 feedback", autoArchiveDuration: ThreadAutoArchiveDuration.OneDay });
    // A thread started from a message takes the message's id.
    expect(thread.id).toBe(starter.id);
    const [heard, newlyCreated] = await created;
    expect([heard.id, heard.ownerId, heard.autoArchiveDuration, newlyCreated]).toEqual([thread.id, bot.user.id, ThreadAutoArchiveDuration.OneDay, true]);
    expect((await channel().messages.fetch({ message: starter.id, force: true })).thread?.id).toBe(thread.id);

    const archived = nextEvent(leanClient, Events.ThreadUpdate, (_old, next) => next.id === thread.id && next.archived === true);
    await thread.setArchived(true);
    await archived;
    const found = await channel().threads.fetchArchived();
    expect([...found.threads.keys()]).toEqual([thread.id]);
    expect(found.threads.get(thread.id)!.archived).toBe(true);
    expect(found.hasMore).toBe(false);
  });

  it("creates, renames and deletes an emoji and creates a sticker, heard as emojiCreate, emojiUpdate, emojiDelete and stickerCreate, never without GuildExpressions", async () => {
    const leaked = [
      collectEvents(leanClient, Events.GuildEmojiCreate),
      collectEvents(leanClient, Events.GuildEmojiUpdate),
      collectEvents(leanClient, Events.GuildEmojiDelete),
      collectEvents(leanClient, Events.GuildStickerCreate),
    ];

    // discord.js emits emojiCreate to the acting client from the REST answer: another client shows the gateway's.
    const created = nextEvent(watcher, Events.GuildEmojiCreate, (emoji) => emoji.name === "party_blob");
    const emoji = await guild().emojis.create({ attachment: PNG_BYTES, name: "party_blob" });
    const [heard] = await created;
    expect([heard.id, heard.name, heard.animated, heard.guild.id]).toEqual([emoji.id, "party_blob", false, guildId]);
    const image = await fetch(emoji.imageURL({ extension: "png" }));
    expect([image.status, Buffer.from(await image.arrayBuffer()).equals(PNG_BYTES)]).toEqual([200, true]);

    const updated = nextEvent(client, Events.GuildEmojiUpdate, (_old, next) => next.id === emoji.id);
    const renamed = await emoji.edit({ name: "party_parrot" });
    expect(renamed.name).toBe("party_parrot");
    const [before, after] = await updated;
    expect([before.name, after.name]).toEqual(["party_blob", "party_parrot"]);

    const deleted = nextEvent(client, Events.GuildEmojiDelete, (gone) => gone.id === emoji.id);
    await guild().emojis.cache.get(emoji.id)!.delete();
    await deleted;
    expect(guild().emojis.cache.has(emoji.id)).toBe(false);

    const stickerHeard = nextEvent(watcher, Events.GuildStickerCreate, (sticker) => sticker.name === "Wave");
    const sticker = await guild().stickers.create({ file: PNG_BYTES, name: "Wave", tags: "wave" });
    expect([sticker.name, sticker.tags, sticker.guildId]).toEqual(["Wave", "wave", guildId]);
    const [stickerCreated] = await stickerHeard;
    expect([stickerCreated.id, stickerCreated.name, stickerCreated.tags]).toEqual([sticker.id, "Wave", "wave"]);

    await leanHearsALaterEvent();
    expect(leaked.map((events) => events.stop())).toEqual([[], [], [], []]);
  });
});
