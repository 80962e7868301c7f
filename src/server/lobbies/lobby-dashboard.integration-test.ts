import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeUser, writeGuildState } from "~/test/factories.ts";
import { lobbyKit, UNKNOWN_LOBBY } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { LOBBY_LIST_PAGE_SIZE, LOBBY_MESSAGES_PAGE_SIZE } from "./lobby-dashboard.service.ts";
import { LobbyEvents, LobbyMemberFlags } from "./lobby.schema.ts";

const app = useTestApp();
const kit = lobbyKit(app);

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A game with two players and the dashboard caller of the application's owner. */
async function ownedGame() {
  const game = await kit.game(2);
  const owner = createCaller({ db: app.db, userId: game.application.ownerId });
  return { ...game, owner, applicationId: game.application.id };
}

const later = (minutes: number) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(Date.now() + minutes * 60_000);
};

describe("lobby router (dashboard Lobbies)", () => {
  it("lists the application's live lobbies newest first with members, metadata, linked channel and idle deadline", async () => {
    const { owner, server, players, applicationId } = await ownedGame();
    const [host, guest] = players as [(typeof players)[0], (typeof players)[0]];
    const older = await kit.lobby(server, { metadata: { mode: "casual" }, members: [{ id: host.user.id }] });
    const newer = await kit.lobby(server, {
      metadata: { mode: "ranked", map: "dust" },
      members: [{ id: host.user.id, flags: LobbyMemberFlags.CanLinkLobby }, { id: guest.user.id }],
      idle_timeout_seconds: 600,
    });
    const guild = await createGuild({ db: app.db, actor: { kind: "user", userId: host.user.id, applicationId: null, scopes: new Set() } }, { name: "Clan" });
    expect((await host.api.patch(`/lobbies/${newer.id}/channel-linking`, { channel_id: guild.system_channel_id })).status).toBe(200);
    // Another application's lobby is not listed.
    const other = await kit.game(0);
    await kit.lobby(other.server);

    const list = await owner.lobby.list({ applicationId });
    expect(list).toMatchObject({ application: { id: applicationId }, page: 1, pageSize: LOBBY_LIST_PAGE_SIZE, total: 2 });
    expect(list.lobbies.map((lobby) => lobby.id)).toEqual([newer.id, older.id]);
    const [first] = list.lobbies;
    expect(first).toMatchObject({
      memberCount: 2,
      metadata: { mode: "ranked", map: "dust" },
      linkedChannel: { id: guild.system_channel_id, name: "general", guildId: guild.id, guildName: "Clan" },
      idleTimeoutSeconds: 600,
    });
    expect(Date.parse(first!.expiresAt) - Date.parse(first!.lastActivityAt)).toBe(600_000);
    expect(list.lobbies[1]).toMatchObject({ memberCount: 1, metadata: { mode: "casual" }, linkedChannel: null, idleTimeoutSeconds: 300 });
  });

  it("hides lobbies gone idle before any sweep, in the list and when opened", async () => {
    const { owner, server, applicationId } = await ownedGame();
    const short = await kit.lobby(server, { idle_timeout_seconds: 60 });
    const long = await kit.lobby(server, { idle_timeout_seconds: 3600 });
    later(2);
    const list = await owner.lobby.list({ applicationId });
    expect(list.lobbies.map((lobby) => lobby.id)).toEqual([long.id]);
    expect(list.total).toBe(1);
    // The row is still there: only the read decides it is gone.
    expect(await app.db.lobby.count({ where: { id: short.id } })).toBe(1);
    await expect(owner.lobby.get({ applicationId, lobbyId: short.id })).rejects.toMatchObject({ code: "NOT_FOUND", message: UNKNOWN_LOBBY.message });
    await expect(owner.lobby.messages({ applicationId, lobbyId: short.id })).rejects.toMatchObject({ code: "NOT_FOUND", message: UNKNOWN_LOBBY.message });
    expect((await owner.lobby.get({ applicationId, lobbyId: long.id })).id).toBe(long.id);
  });

  it("pages through many lobbies", async () => {
    const { owner, server, applicationId } = await ownedGame();
    const made = [];
    for (let i = 0; i < LOBBY_LIST_PAGE_SIZE + 2; i += 1) made.push((await kit.lobby(server)).id);
    const first = await owner.lobby.list({ applicationId });
    const second = await owner.lobby.list({ applicationId, page: 2 });
    expect(first.total).toBe(LOBBY_LIST_PAGE_SIZE + 2);
    expect(first.lobbies).toHaveLength(LOBBY_LIST_PAGE_SIZE);
    expect([...first.lobbies, ...second.lobbies].map((lobby) => lobby.id)).toEqual(made.reverse());
    await expect(owner.lobby.list({ applicationId, page: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("opens a lobby with its REST object and members with their users, flags, metadata and join time", async () => {
    const { owner, server, players, applicationId } = await ownedGame();
    const [host, guest] = players as [(typeof players)[0], (typeof players)[0]];
    const made = await kit.lobby(server, {
      metadata: { mode: "ranked" },
      members: [{ id: host.user.id, flags: LobbyMemberFlags.CanLinkLobby, metadata: { team: "red" } }, { id: guest.user.id }],
    });
    const view = await owner.lobby.get({ applicationId, lobbyId: made.id });
    expect(view.lobby).toEqual((await server.get(`/lobbies/${made.id}`)).body);
    expect(view.members).toEqual([
      {
        user: { id: host.user.id, username: host.user.username, globalName: null, avatar: null },
        flags: LobbyMemberFlags.CanLinkLobby,
        metadata: { team: "red" },
        joinedAt: expect.any(String),
      },
      { user: expect.objectContaining({ id: guest.user.id }), flags: 0, metadata: null, joinedAt: expect.any(String) },
    ]);
    expect(view).toMatchObject({ application: { id: applicationId }, memberCount: 2, metadata: { mode: "ranked" } });
  });

  it("treats another user's application, and an unknown one, as not found, changing nothing", async () => {
    const { server, players, applicationId } = await ownedGame();
    const [host] = players;
    const lobby = await kit.lobby(server, { members: [{ id: host!.user.id }] });
    const sent = await host!.api.post(`/lobbies/${lobby.id}/messages`, { content: "hello" });
    const { user } = await makeUser(app.db);
    const stranger = createCaller({ db: app.db, userId: user.id });
    const ids = { applicationId, lobbyId: lobby.id };
    const unknownApplication = { code: "NOT_FOUND", message: "Unknown Application" };
    await expect(stranger.lobby.list({ applicationId })).rejects.toMatchObject(unknownApplication);
    await expect(stranger.lobby.get(ids)).rejects.toMatchObject(unknownApplication);
    await expect(stranger.lobby.messages(ids)).rejects.toMatchObject(unknownApplication);
    await expect(stranger.lobby.removeMember({ ...ids, userId: host!.user.id })).rejects.toMatchObject(unknownApplication);
    await expect(stranger.lobby.setModerationMetadata({ ...ids, messageId: sent.body.id, metadata: { flagged: "yes" } })).rejects.toMatchObject(
      unknownApplication,
    );
    await expect(stranger.lobby.deleteMessage({ ...ids, messageId: sent.body.id })).rejects.toMatchObject(unknownApplication);
    await expect(stranger.lobby.delete(ids)).rejects.toMatchObject(unknownApplication);
    await expect(stranger.lobby.list({ applicationId: "1" })).rejects.toMatchObject(unknownApplication);
    await expect(createCaller({ db: app.db, userId: null }).lobby.list({ applicationId })).rejects.toMatchObject({ code: "UNAUTHORIZED" });

    expect((await server.get(`/lobbies/${lobby.id}`)).body.members).toHaveLength(1);
    const row = await app.db.lobbyMessage.findUniqueOrThrow({ where: { id: sent.body.id } });
    expect(row.moderationMetadata).toBeNull();
  });

  it("lists messages newest first with author, metadata and forwarding state, a page at a time", async () => {
    const { owner, server, players, applicationId } = await ownedGame();
    const [host, guest] = players as [(typeof players)[0], (typeof players)[0]];
    const guild = await createGuild({ db: app.db, actor: { kind: "user", userId: host.user.id, applicationId: null, scopes: new Set() } }, { name: "Clan" });
    const general = guild.system_channel_id!;
    await addMember(app.db, guild.id, guest.user.id);
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.permissionOverwrite.create({ data: { channelId: general, targetId: guest.user.id, type: 1, allow: 0n, deny: P.SendMessages } }),
    );
    const lobby = await kit.lobby(server, { members: [{ id: host.user.id, flags: LobbyMemberFlags.CanLinkLobby }, { id: guest.user.id }] });
    const unlinked = await host.api.post(`/lobbies/${lobby.id}/messages`, { content: "before the link", metadata: { emote: "wave" } });
    await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general });
    const forwarded = await host.api.post(`/lobbies/${lobby.id}/messages`, { content: "queue up" });
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const refused = await guest.api.post(`/lobbies/${lobby.id}/messages`, { content: "can't post there" });

    const page = await owner.lobby.messages({ applicationId, lobbyId: lobby.id });
    expect(page.nextCursor).toBeNull();
    expect(page.messages.map((message) => message.id)).toEqual([refused.body.id, forwarded.body.id, unlinked.body.id]);
    const copy = await app.db.lobbyMessage.findUniqueOrThrow({ where: { id: forwarded.body.id } });
    expect(page.messages[0]).toMatchObject({
      author: { id: guest.user.id, username: guest.user.username },
      content: "can't post there",
      forwarding: { state: "failed", reason: "50013: Missing Permissions" },
    });
    expect(page.messages[1]).toMatchObject({
      forwarding: { state: "forwarded", messageId: copy.forwardedMessageId, channel: { id: general, name: "general", guildId: guild.id } },
    });
    expect(page.messages[2]).toMatchObject({ metadata: { emote: "wave" }, moderationMetadata: null, forwarding: { state: "none" } });

    const sent = [unlinked.body.id, forwarded.body.id, refused.body.id];
    for (let i = 0; i < LOBBY_MESSAGES_PAGE_SIZE; i += 1) sent.push((await host.api.post(`/lobbies/${lobby.id}/messages`, { content: `msg ${i}` })).body.id);
    const first = await owner.lobby.messages({ applicationId, lobbyId: lobby.id });
    expect(first.messages).toHaveLength(LOBBY_MESSAGES_PAGE_SIZE);
    expect(first.nextCursor).toBe(first.messages.at(-1)!.id);
    const second = await owner.lobby.messages({ applicationId, lobbyId: lobby.id, cursor: first.nextCursor });
    expect(second.nextCursor).toBeNull();
    expect([...first.messages, ...second.messages].map((message) => message.id)).toEqual(sent.reverse());
  });

  it("sets a message's moderation metadata: players see it and hear LOBBY_MESSAGE_UPDATE", async () => {
    const { owner, server, players, applicationId } = await ownedGame();
    const [host] = players;
    const lobby = await kit.lobby(server, { members: [{ id: host!.user.id }] });
    const sent = await host!.api.post(`/lobbies/${lobby.id}/messages`, { content: "rude words" });
    const ids = { applicationId, lobbyId: lobby.id, messageId: sent.body.id as string };

    const updated = await owner.lobby.setModerationMetadata({ ...ids, metadata: { verdict: "hidden", by: "moderator" } });
    expect(updated.moderation_metadata).toEqual({ verdict: "hidden", by: "moderator" });
    expect((await host!.api.get(`/lobbies/${lobby.id}/messages`)).body[0].moderation_metadata).toEqual({ verdict: "hidden", by: "moderator" });
    const events = (await kit.eventsOf(LobbyEvents.MessageUpdate)).filter((event) => event.id === sent.body.id);
    expect(events).toEqual([updated]);
    expect((await owner.lobby.messages(ids)).messages[0]!.moderationMetadata).toEqual({ verdict: "hidden", by: "moderator" });

    // Clearing it: an empty object.
    await owner.lobby.setModerationMetadata({ ...ids, metadata: {} });
    expect((await owner.lobby.messages(ids)).messages[0]!.moderationMetadata).toBeNull();
  });

  it("refuses moderation metadata past spec 8's limits and unknown messages", async () => {
    const { owner, server, players, applicationId } = await ownedGame();
    const [host] = players;
    const lobby = await kit.lobby(server, { members: [{ id: host!.user.id }] });
    const other = await kit.lobby(server, { members: [{ id: host!.user.id }] });
    const sent = await host!.api.post(`/lobbies/${lobby.id}/messages`, { content: "hi" });
    const ids = { applicationId, lobbyId: lobby.id, messageId: sent.body.id as string };
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, "v"]));
    for (const metadata of [six, { ["k".repeat(1025)]: "v" }, { k: "v".repeat(2001) }]) {
      await expect(owner.lobby.setModerationMetadata({ ...ids, metadata })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    }
    await owner.lobby.setModerationMetadata({ ...ids, metadata: { ["k".repeat(1024)]: "v".repeat(2000) } });
    await expect(owner.lobby.setModerationMetadata({ ...ids, lobbyId: other.id, metadata: { a: "b" } })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Unknown Message",
    });
  });

  it("deletes a message for the lobby with LOBBY_MESSAGE_DELETE, and only a message of that lobby", async () => {
    const { owner, server, players, applicationId } = await ownedGame();
    const [host] = players;
    const lobby = await kit.lobby(server, { members: [{ id: host!.user.id }] });
    const other = await kit.lobby(server, { members: [{ id: host!.user.id }] });
    const kept = await host!.api.post(`/lobbies/${lobby.id}/messages`, { content: "keep" });
    const sent = await host!.api.post(`/lobbies/${lobby.id}/messages`, { content: "remove me" });
    const ids = { applicationId, lobbyId: lobby.id, messageId: sent.body.id as string };

    await expect(owner.lobby.deleteMessage({ ...ids, lobbyId: other.id })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Unknown Message" });
    await owner.lobby.deleteMessage(ids);
    expect((await host!.api.get(`/lobbies/${lobby.id}/messages`)).body.map((m: { id: string }) => m.id)).toEqual([kept.body.id]);
    expect((await owner.lobby.messages(ids)).messages.map((m) => m.id)).toEqual([kept.body.id]);
    expect((await kit.eventsOf(LobbyEvents.MessageDelete)).filter((event) => event.lobby_id === lobby.id)).toEqual([{ id: sent.body.id, lobby_id: lobby.id }]);
    await expect(owner.lobby.deleteMessage(ids)).rejects.toMatchObject({ code: "NOT_FOUND", message: "Unknown Message" });
  });

  it("removes a member with LOBBY_MEMBER_REMOVE; removing one who left is no change", async () => {
    const { owner, server, players, applicationId } = await ownedGame();
    const [host, guest] = players as [(typeof players)[0], (typeof players)[0]];
    const lobby = await kit.lobby(server, { members: [{ id: host.user.id }, { id: guest.user.id }] });
    const ids = { applicationId, lobbyId: lobby.id };

    await owner.lobby.removeMember({ ...ids, userId: guest.user.id });
    expect((await owner.lobby.get(ids)).members.map((member) => member.user.id)).toEqual([host.user.id]);
    expect((await server.get(`/lobbies/${lobby.id}`)).body.members.map((m: { id: string }) => m.id)).toEqual([host.user.id]);
    const removals = (await kit.eventsOf(LobbyEvents.MemberRemove)).filter((event) => event.lobby_id === lobby.id);
    expect(removals).toEqual([{ lobby_id: lobby.id, member: { id: guest.user.id, metadata: null, flags: 0 } }]);
    await owner.lobby.removeMember({ ...ids, userId: guest.user.id });
    expect((await kit.eventsOf(LobbyEvents.MemberRemove)).filter((event) => event.lobby_id === lobby.id)).toHaveLength(1);
  });

  it("deletes a lobby with LOBBY_DELETE; afterwards it has ended", async () => {
    const { owner, server, applicationId } = await ownedGame();
    const lobby = await kit.lobby(server);
    const ids = { applicationId, lobbyId: lobby.id };
    await owner.lobby.delete(ids);
    expect((await kit.eventsOf(LobbyEvents.Delete)).filter((event) => event.id === lobby.id)).toEqual([
      { id: lobby.id, application_id: applicationId, reason: "deleted" },
    ]);
    await expect(owner.lobby.get(ids)).rejects.toMatchObject({ code: "NOT_FOUND", message: UNKNOWN_LOBBY.message });
    expect((await server.get(`/lobbies/${lobby.id}`)).status).toBe(404);
    expect((await owner.lobby.list({ applicationId })).total).toBe(0);
    // Deleting again is safe, as DELETE /lobbies/{lobby.id} is.
    await owner.lobby.delete(ids);
  });
});
