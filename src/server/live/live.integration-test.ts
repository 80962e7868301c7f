import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { GatewayDispatchEvents as E, OverwriteType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { afterEach, describe, expect, it } from "vitest";
import { createApplication } from "~/server/applications/application.service.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import { outboxHead } from "~/server/events/outbox-read.ts";
import { createLobby } from "~/server/lobbies/lobby.service.ts";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { kickMember } from "~/server/members/member.service.ts";
import { modifyMember } from "~/server/members/modify-member.service.ts";
import { createRole, modifyRole } from "~/server/roles/role.service.ts";
import { createTRPCContext } from "~/server/trpc/init.ts";
import { appRouter } from "~/server/trpc/root.ts";
import { addMember, makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { useTestApp } from "~/test/test-app.ts";

// The dashboard's live streams over HTTP, as a browser's EventSource reads them: who hears
// what, who stops hearing, and catching up after a reconnect.

const app = useTestApp();
const opened: AbortController[] = [];

afterEach(() => {
  for (const controller of opened.splice(0)) controller.abort();
});

type Message = { event: string; id: string | null; data: unknown };

/** A server-sent event stream read one message at a time (comments, the pings, skipped). */
class SseReader {
  readonly #reader: ReadableStreamDefaultReader<Uint8Array>;
  readonly #decoder = new TextDecoder();
  #buffer = "";

  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }

  /** The next message, or null when the stream ended. */
  async next(): Promise<Message | null> {
    for (;;) {
      const end = this.#buffer.indexOf("\n\n");
      if (end >= 0) {
        const block = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 2);
        const message: Message = { event: "message", id: null, data: null };
        let hasData = false;
        for (const line of block.split("\n")) {
          const colon = line.indexOf(":");
          if (colon === 0) continue;
          const field = line.slice(0, colon);
          const value = line.slice(colon + 1).trimStart();
          if (field === "event") message.event = value;
          if (field === "id") message.id = value;
          if (field === "data" && value) {
            message.data = JSON.parse(value) as unknown;
            hasData = true;
          }
        }
        if (hasData || message.event !== "message") return message;
        continue;
      }
      const { value, done } = await this.#reader.read();
      if (done) return null;
      this.#buffer += this.#decoder.decode(value, { stream: true });
    }
  }

  /** The next notice (a `message` event), skipping the others (`connected`, pings); null when the server ended the stream. */
  async notice(): Promise<{ id: string | null; data: Record<string, unknown> } | null> {
    for (let message = await this.next(); message; message = await this.next()) {
      if (message.event === "serialized-error") throw new Error(`stream failed: ${JSON.stringify(message.data)}`);
      if (message.event === "return") return null;
      if (message.event === "message") return { id: message.id, data: message.data as Record<string, unknown> };
    }
    return null;
  }

  /** The error the stream fails with. */
  async error(): Promise<unknown> {
    for (let message = await this.next(); message; message = await this.next()) {
      if (message.event === "serialized-error") return message.data;
    }
    return null;
  }
}

/** Opens a live stream as `userId`, as the dashboard's EventSource does. */
async function open(userId: string, path: string, input: object, lastEventId?: string): Promise<{ response: Response; stream: SseReader }> {
  const controller = new AbortController();
  opened.push(controller);
  const query = `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const headers = lastEventId ? { "Last-Event-ID": lastEventId } : undefined;
  const req = new Request(`http://dashboard.test/api/trpc/${path}${query}`, { signal: controller.signal, headers });
  const response = await fetchRequestHandler({ endpoint: "/api/trpc", req, router: appRouter, createContext: () => createTRPCContext({ db: app.db, userId }) });
  const stream = new SseReader(response.body!);
  return { response, stream };
}

/** A guild with an owner, a member, and a channel only the owner's moderators see, with a bot to post in it. */
async function world() {
  const { user: owner } = await makeUser(app.db);
  const ownerCtx = { db: app.db, actor: dashboardActor(owner.id) };
  const guild = await makeGuild(app.db, ownerCtx.actor);
  const { user: member } = await makeUser(app.db);
  await addMember(app.db, guild.id, member.id);
  const bot = await makeBot(app.db);
  await addMember(app.db, guild.id, bot.user.id);
  const seers = await createRole(ownerCtx, { guildId: guild.id, body: { name: "Seers" } });
  const secret = await createGuildChannel(ownerCtx, {
    guildId: guild.id,
    body: {
      name: "secret",
      permission_overwrites: [
        { id: guild.id, type: OverwriteType.Role, allow: 0n, deny: P.ViewChannel },
        { id: seers.id, type: OverwriteType.Role, allow: P.ViewChannel, deny: 0n },
        { id: bot.user.id, type: OverwriteType.Member, allow: P.ViewChannel, deny: 0n },
      ],
    },
  });
  const post = (content: string) => app.as(`Bot ${bot.token}`).post(`/channels/${secret.id}/messages`, { content });
  return { owner, ownerCtx, guild, member, seers, secret, post, botToken: bot.token };
}

describe("a guild's live stream", () => {
  it("tells a member of changes as notices carrying the event's seq, and nothing of a channel they cannot view", async () => {
    const w = await world();
    const { stream: owners } = await open(w.owner.id, "live.guild", { guildId: w.guild.id });
    const { stream: members } = await open(w.member.id, "live.guild", { guildId: w.guild.id });
    const ready = await Promise.all([owners.next(), members.next()]);
    expect(ready.map((m) => m?.event)).toEqual(["connected", "connected"]);

    expect((await w.post("in secret")).status).toBe(200);
    await modifyRole(w.ownerCtx, { guildId: w.guild.id, roleId: w.seers.id, body: { name: "Oracles" } });

    const toOwner = await owners.notice();
    expect(toOwner?.data).toMatchObject({ type: E.MessageCreate, channelId: w.secret.id });
    expect(Number(toOwner?.id)).toBeGreaterThan(0);
    expect((await owners.notice())?.data).toMatchObject({ type: E.GuildRoleUpdate });
    // The owner reads the audit log; the member does not, and hears the role's change alone.
    expect((await owners.notice())?.data).toMatchObject({ type: E.GuildAuditLogEntryCreate });
    // The member's first notice is the role's: the message in #secret never reached them.
    expect((await members.notice())?.data).toMatchObject({ type: E.GuildRoleUpdate });
  });

  it("stops telling a member of a channel once a role change takes their view away", async () => {
    const w = await world();
    await modifyMember(w.ownerCtx, { guildId: w.guild.id, userId: w.member.id, body: { roles: [w.seers.id] } });
    const { stream } = await open(w.member.id, "live.guild", { guildId: w.guild.id });
    await stream.next();

    await w.post("seen");
    expect((await stream.notice())?.data).toMatchObject({ type: E.MessageCreate, channelId: w.secret.id });
    await modifyMember(w.ownerCtx, { guildId: w.guild.id, userId: w.member.id, body: { roles: [] } });
    expect((await stream.notice())?.data).toMatchObject({ type: E.GuildMemberUpdate, userId: w.member.id, self: true });
    await w.post("unseen");
    await modifyRole(w.ownerCtx, { guildId: w.guild.id, roleId: w.seers.id, body: { name: "Former" } });
    expect((await stream.notice())?.data).toMatchObject({ type: E.GuildRoleUpdate });
  });

  it("ends for a member who is removed, after telling them", async () => {
    const w = await world();
    const { stream } = await open(w.member.id, "live.guild", { guildId: w.guild.id });
    await stream.next();
    await kickMember(w.ownerCtx, { guildId: w.guild.id, userId: w.member.id });
    expect((await stream.notice())?.data).toMatchObject({ type: E.GuildMemberRemove, self: true, gone: true });
    expect(await stream.notice()).toBeNull();
  });

  it("replays what a reconnecting browser missed after its last event id, filtered the same way, then goes on live", async () => {
    const w = await world();
    const before = await outboxHead(app.db);
    await w.post("missed, unseen by the member");
    await modifyRole(w.ownerCtx, { guildId: w.guild.id, roleId: w.seers.id, body: { name: "Missed" } });

    const { stream } = await open(w.member.id, "live.guild", { guildId: w.guild.id }, String(before));
    await stream.next();
    const replayed = await stream.notice();
    expect(replayed?.data).toMatchObject({ type: E.GuildRoleUpdate });
    await modifyRole(w.ownerCtx, { guildId: w.guild.id, roleId: w.seers.id, body: { name: "Live" } });
    const live = await stream.notice();
    expect(live?.data).toMatchObject({ type: E.GuildRoleUpdate });
    expect(Number(live?.id)).toBeGreaterThan(Number(replayed?.id));
  });

  it("replays nothing from before a member joined: an older last event id answers RESYNC, while a long-time member's replay goes on", async () => {
    const w = await world();
    const lounge = await createGuildChannel(w.ownerCtx, { guildId: w.guild.id, body: { name: "lounge" } });
    const before = await outboxHead(app.db);
    const said = await app.as(`Bot ${w.botToken}`).post(`/channels/${lounge.id}/messages`, { content: "before you came" });
    expect(said.status).toBe(200);
    expect((await app.as(`Bot ${w.botToken}`).delete(`/channels/${lounge.id}/messages/${said.body.id}`)).status).toBe(204);
    const { user: newcomer } = await makeUser(app.db);
    await addMember(app.db, w.guild.id, newcomer.id);

    const { stream: newcomers } = await open(newcomer.id, "live.guild", { guildId: w.guild.id, lastEventId: String(before) });
    await newcomers.next();
    expect((await newcomers.notice())?.data).toEqual({ type: "RESYNC" });
    // Then live, as any stream: the next notice is what happens now.
    await modifyRole(w.ownerCtx, { guildId: w.guild.id, roleId: w.seers.id, body: { name: "Now" } });
    expect((await newcomers.notice())?.data).toMatchObject({ type: E.GuildRoleUpdate });

    const { stream: members } = await open(w.member.id, "live.guild", { guildId: w.guild.id, lastEventId: String(before) });
    await members.next();
    expect((await members.notice())?.data).toMatchObject({ type: E.MessageCreate, channelId: lounge.id });
    expect((await members.notice())?.data).toMatchObject({ type: E.MessageDelete, channelId: lounge.id });
    expect((await members.notice())?.data).toMatchObject({ type: E.GuildMemberAdd, userId: newcomer.id });
  });

  it("answers RESYNC to a last event id from before a role gave the member a channel, rather than replay that channel", async () => {
    const w = await world();
    const before = await outboxHead(app.db);
    await w.post("before the member could see #secret");
    await modifyMember(w.ownerCtx, { guildId: w.guild.id, userId: w.member.id, body: { roles: [w.seers.id] } });
    const { stream } = await open(w.member.id, "live.guild", { guildId: w.guild.id, lastEventId: String(before) });
    await stream.next();
    expect((await stream.notice())?.data).toEqual({ type: "RESYNC" });
  });

  it("tells a browser whose last event id the outbox does not hold to refetch everything", async () => {
    const w = await world();
    const { stream } = await open(w.member.id, "live.guild", { guildId: w.guild.id, lastEventId: String((await outboxHead(app.db)) + 1000) });
    await stream.next();
    expect((await stream.notice())?.data).toEqual({ type: "RESYNC" });
  });

  it("is refused to someone outside the guild", async () => {
    const w = await world();
    const { user: outsider } = await makeUser(app.db);
    const { response, stream } = await open(outsider.id, "live.guild", { guildId: w.guild.id });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    expect(await stream.error()).toMatchObject({ data: { code: "FORBIDDEN" } });
  });
});

describe("an application's lobby stream", () => {
  it("tells the owner of their lobbies' events and refuses anyone else", async () => {
    const { user: owner } = await makeUser(app.db);
    const { application, botUser } = await createApplication(app.db, { name: "Game", ownerId: owner.id });
    const { stream } = await open(owner.id, "live.application", { applicationId: application.id });
    await stream.next();
    const actor = { kind: "bot" as const, userId: botUser.id, applicationId: application.id, scopes: new Set<string>() };
    const lobby = await createLobby({ db: app.db, actor }, { idle_timeout_seconds: 300 });
    expect((await stream.notice())?.data).toEqual({ type: LobbyEvents.Create, lobbyId: lobby.id });

    const { user: stranger } = await makeUser(app.db);
    const refused = await open(stranger.id, "live.application", { applicationId: application.id });
    expect(await refused.stream.error()).toMatchObject({ data: { code: "NOT_FOUND" } });
  });
});
