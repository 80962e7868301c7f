import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { deleteChannel } from "~/server/channels/delete-channel.service.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { LobbyEvents, LobbyMemberFlags } from "~/server/lobbies/lobby.schema.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { addMember, writeGuildState } from "~/test/factories.ts";
import { lobbyKit, UNKNOWN_LOBBY } from "~/test/lobby-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = lobbyKit(app);

afterEach(() => vi.restoreAllMocks());

/**
 * A game with a lobby of players `host` (guild owner, CanLinkLobby), `guest` (guild member,
 * sending denied in #general) and `stranger` (not in the guild), and the host's guild.
 */
async function linkedGame() {
  const game = await kit.game(3);
  const [host, guest, stranger] = game.players as [(typeof game.players)[0], (typeof game.players)[0], (typeof game.players)[0]];
  const guild = await createGuild({ db: app.db, actor: { kind: "user", userId: host.user.id, applicationId: null, scopes: new Set() } }, { name: "Clan" });
  const general = guild.system_channel_id!;
  await addMember(app.db, guild.id, guest.user.id);
  await writeGuildState(app.db, guild.id, (tx) =>
    tx.permissionOverwrite.create({ data: { channelId: general, targetId: guest.user.id, type: 1, allow: 0n, deny: P.SendMessages } }),
  );
  const lobby = await kit.lobby(game.server, {
    members: [
      { id: host.user.id, flags: LobbyMemberFlags.CanLinkLobby },
      { id: guest.user.id, flags: LobbyMemberFlags.CanLinkLobby },
      { id: stranger.user.id },
    ],
  });
  return { ...game, host, guest, stranger, guild, general, lobby };
}

describe("POST and GET /lobbies/{lobby.id}/messages", () => {
  it("stores a member's message, delivers it as Lobby Message Create and lists the most recent first", async () => {
    const { server, players, application } = await kit.game(2);
    const [a, b] = players;
    const lobby = await kit.lobby(server, { members: [{ id: a!.user.id }, { id: b!.user.id }] });
    const sent = await a!.api.post(`/lobbies/${lobby.id}/messages`, { content: "gl hf", metadata: { emote: "wave" }, flags: 4096 });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      type: 0,
      content: "gl hf",
      lobby_id: lobby.id,
      channel_id: lobby.id,
      author: { id: a!.user.id },
      metadata: { emote: "wave" },
      moderation_metadata: null,
      flags: 4096,
      application_id: application.id,
    });
    expect(await kit.eventsOf(LobbyEvents.MessageCreate)).toContainEqual(sent.body);
    for (let i = 0; i < 3; i += 1) await b!.api.post(`/lobbies/${lobby.id}/messages`, { content: `m${i}` });

    const all = await b!.api.get(`/lobbies/${lobby.id}/messages`);
    expect(all.body.map((m: { content: string }) => m.content)).toEqual(["m2", "m1", "m0", "gl hf"]);
    const two = await b!.api.get(`/lobbies/${lobby.id}/messages`, { query: { limit: 2 } });
    expect(two.body.map((m: { content: string }) => m.content)).toEqual(["m2", "m1"]);
  });

  it("takes messages only from members, with a Bearer token, non-empty and with the SDK's flags", async () => {
    const { server, players, token, application } = await kit.game(2);
    const [member, outsider] = players;
    const lobby = await kit.lobby(server, { members: [{ id: member!.user.id }] });
    const path = `/lobbies/${lobby.id}/messages`;
    expect((await outsider!.api.post(path, { content: "hi" })).body.code).toBe(50001);
    expect((await outsider!.api.get(path)).body.code).toBe(50001);
    expect((await app.as(bot(token)).post(path, { content: "hi" })).status).toBe(401);
    expect((await app.as(bot(token)).get(path)).status).toBe(401);
    const unscoped = await kit.player(application.id, ["identify"]);
    expect((await unscoped.api.post(path, { content: "hi" })).body.code).toBe(50001);
    for (const body of [
      {},
      { content: "" },
      { content: "x".repeat(4001) },
      { content: "hi", flags: 1 << 15 },
      { content: "hi", metadata: { k: "v".repeat(1000) } },
    ]) {
      const refused = await member!.api.post(path, body);
      expect(refused.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(refused.body.code).toBe(50035);
    }
    for (const limit of [0, 201, "x"]) expect((await member!.api.get(path, { query: { limit } })).status).toBe(400);
    expect((await member!.api.post("/lobbies/1234567890123/messages", { content: "hi" })).body).toMatchObject(UNKNOWN_LOBBY);
    expect(await app.db.lobbyMessage.count({ where: { lobbyId: lobby.id } })).toBe(0);
  });
});

describe("PUT /lobbies/{lobby.id}/messages/{message.id}/moderation-metadata", () => {
  it("stores the metadata on the message and fires Lobby Message Update; 204", async () => {
    const { server, players } = await kit.game(1);
    const lobby = await kit.lobby(server, { members: [{ id: players[0]!.user.id }] });
    const sent = await players[0]!.api.post(`/lobbies/${lobby.id}/messages`, { content: "spam?" });
    const path = `/lobbies/${lobby.id}/messages/${sent.body.id}/moderation-metadata`;
    const put = await server.put(path, { verdict: "ok", score: "0.1" });
    expect(put.status).toBe(204);
    const listed = await players[0]!.api.get(`/lobbies/${lobby.id}/messages`);
    expect(listed.body[0].moderation_metadata).toEqual({ verdict: "ok", score: "0.1" });
    expect((await kit.eventsOf(LobbyEvents.MessageUpdate)).filter((e) => e.id === sent.body.id)).toEqual([listed.body[0]]);
  });

  it("refuses more than 5 keys, long keys or values, unknown messages and Bearer tokens", async () => {
    const { server, players } = await kit.game(1);
    const lobby = await kit.lobby(server, { members: [{ id: players[0]!.user.id }] });
    const other = await kit.lobby(server, { members: [{ id: players[0]!.user.id }] });
    const sent = await players[0]!.api.post(`/lobbies/${lobby.id}/messages`, { content: "x" });
    const path = `/lobbies/${lobby.id}/messages/${sent.body.id}/moderation-metadata`;
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`k${i}`, "v"]));
    for (const body of [six, { ["k".repeat(1025)]: "v" }, { k: "v".repeat(2001) }, { k: 1 }, ["v"]]) {
      const refused = await server.put(path, body);
      expect(refused.status).toBe(400);
      expect(refused.body.code).toBe(50035);
    }
    expect((await server.put(path, { ["k".repeat(1024)]: "v".repeat(2000) })).status).toBe(204);
    const elsewhere = await server.put(`/lobbies/${other.id}/messages/${sent.body.id}/moderation-metadata`, {});
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.code).toBe(10008);
    expect((await players[0]!.api.put(path, {})).status).toBe(401);
  });
});

describe("PATCH /lobbies/{lobby.id}/channel-linking", () => {
  it("links a text channel the member can send in, and unlinks with an empty body", async () => {
    const { host, lobby, general, server } = await linkedGame();
    const linked = await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general });
    expect(linked.status).toBe(200);
    expect(linked.body.linked_channel).toMatchObject({ id: general, type: ChannelType.GuildText, name: "general" });
    expect((await server.get(`/lobbies/${lobby.id}`)).body.linked_channel.id).toBe(general);
    const unlinked = await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, {});
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).not.toHaveProperty("linked_channel");
    expect((await kit.eventsOf(LobbyEvents.Update)).filter((e) => e.id === lobby.id)).toHaveLength(2);
  });

  it("refuses members without CanLinkLobby, outsiders, unseen or unsendable channels, other kinds and Bot tokens", async () => {
    const { host, guest, stranger, lobby, general, guild, token, application, server } = await linkedGame();
    const path = `/lobbies/${lobby.id}/channel-linking`;
    expect((await stranger.api.patch(path, { channel_id: general })).body.code).toBe(50013);
    const outsider = await kit.player(application.id);
    expect((await outsider.api.patch(path, { channel_id: general })).body.code).toBe(50001);
    // Able to link, but may not send in the channel.
    expect((await guest.api.patch(path, { channel_id: general })).body.code).toBe(50013);
    await server.put(`/lobbies/${lobby.id}/members/${stranger.user.id}`, { flags: LobbyMemberFlags.CanLinkLobby });
    // Not in the channel's guild.
    expect((await stranger.api.patch(path, { channel_id: general })).body.code).toBe(50001);
    const voice = await writeGuildState(app.db, guild.id, (tx) =>
      tx.channel.create({ data: { id: newId(), guildId: guild.id, name: "Voice", type: ChannelType.GuildVoice } }),
    );
    expect((await host.api.patch(path, { channel_id: voice.id })).body.code).toBe(50024);
    expect((await host.api.patch(path, { channel_id: "1234567890123" })).body.code).toBe(10003);
    expect((await host.api.patch(path, { channel_id: "nope" })).body.code).toBe(50035);
    expect((await app.as(bot(token)).patch(path, { channel_id: general })).status).toBe(401);
    expect((await app.db.lobby.findUniqueOrThrow({ where: { id: lobby.id } })).linkedChannelId).toBeNull();
  });

  it("links a channel to one lobby at a time", async () => {
    const { host, lobby, general, server } = await linkedGame();
    const second = await kit.lobby(server, { members: [{ id: host.user.id, flags: LobbyMemberFlags.CanLinkLobby }] });
    expect((await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general })).status).toBe(200);
    const taken = await host.api.patch(`/lobbies/${second.id}/channel-linking`, { channel_id: general });
    expect(taken.status).toBe(400);
    expect(taken.body.errors.channel_id._errors[0].code).toBe("LOBBY_CHANNEL_LINKED");
    // Once the first lobby has ended the channel is free.
    expect((await server.delete(`/lobbies/${lobby.id}`)).status).toBe(204);
    expect((await host.api.patch(`/lobbies/${second.id}/channel-linking`, { channel_id: general })).status).toBe(200);
  });
});

describe("forwarding lobby messages to the linked channel", () => {
  it("posts a copy by the author in the channel, without the lobby metadata", async () => {
    const { host, lobby, general } = await linkedGame();
    await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general });
    const sent = await host.api.post(`/lobbies/${lobby.id}/messages`, { content: "queue up", metadata: { secret: "s" } });
    expect(sent.status).toBe(200);
    const row = await app.db.lobbyMessage.findUniqueOrThrow({ where: { id: sent.body.id } });
    expect(row.forwardError).toBeNull();
    const copy = await app.db.message.findUniqueOrThrow({ where: { id: row.forwardedMessageId! } });
    expect(copy).toMatchObject({ channelId: general, authorId: host.user.id, content: "queue up" });
    expect(JSON.stringify(copy)).not.toContain('"secret"');
  });

  it("still delivers to the lobby when forwarding fails, and logs why", async () => {
    const { host, guest, lobby, general } = await linkedGame();
    await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const sent = await guest.api.post(`/lobbies/${lobby.id}/messages`, { content: "can't post there" });
    expect(sent.status).toBe(200);
    expect((await host.api.get(`/lobbies/${lobby.id}/messages`)).body[0].id).toBe(sent.body.id);
    expect(await kit.eventsOf(LobbyEvents.MessageCreate)).toContainEqual(sent.body);
    const row = await app.db.lobbyMessage.findUniqueOrThrow({ where: { id: sent.body.id } });
    expect(row).toMatchObject({ forwardedMessageId: null, forwardError: "50013: Missing Permissions" });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining(`was not forwarded to channel ${general}: 50013`), "");
    expect(await app.db.message.count({ where: { channelId: general, content: "can't post there" } })).toBe(0);
  });
});

describe("POST /lobbies/{lobby.id}/members/@me/invites and /members/{user.id}/invites", () => {
  it("answers a single-use invite to the linked channel that lasts an hour", async () => {
    const { host, guest, lobby, general, server } = await linkedGame();
    await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general });
    const mine = await guest.api.post(`/lobbies/${lobby.id}/members/@me/invites`);
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({ code: expect.any(String) });
    const invite = await app.db.invite.findUniqueOrThrow({ where: { code: mine.body.code } });
    expect(invite).toMatchObject({ channelId: general, maxUses: 1, maxAge: 3600, inviterId: guest.user.id });
    expect(invite.expiresAt!.getTime() - invite.createdAt.getTime()).toBe(3_600_000);
    const theirs = await server.post(`/lobbies/${lobby.id}/members/${host.user.id}/invites`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.code).not.toBe(mine.body.code);
  });

  it("treats a deleted linked channel as unlinked: no invite, no forwarding, the lobby still talks", async () => {
    const { host, lobby, general, server } = await linkedGame();
    await host.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: general });
    // The guild's owner deletes the channel in the dashboard.
    await deleteChannel({ db: app.db, actor: dashboardActor(host.user.id) }, { channelId: general });
    expect((await server.get(`/lobbies/${lobby.id}`)).body).not.toHaveProperty("linked_channel");
    expect((await host.api.post(`/lobbies/${lobby.id}/members/@me/invites`)).body.code).toBe(10003);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const sent = await host.api.post(`/lobbies/${lobby.id}/messages`, { content: "still here" });
    expect(sent.status).toBe(200);
  });

  it("makes invites only for a channel linked by a member who may create invites in it, now as at linking", async () => {
    const { guest, stranger, lobby, guild, server } = await linkedGame();
    const lfg = await writeGuildState(app.db, guild.id, async (tx) => {
      const everyone = await tx.role.findUniqueOrThrow({ where: { id: guild.id } });
      await tx.role.update({ where: { id: guild.id }, data: { permissions: everyone.permissions & ~P.CreateInstantInvite } });
      return tx.channel.create({ data: { id: newId(), guildId: guild.id, name: "lfg", type: ChannelType.GuildText } });
    });
    const setInvitePermission = (allow: boolean) =>
      writeGuildState(app.db, guild.id, (tx) =>
        tx.permissionOverwrite.upsert({
          where: { channelId_targetId: { channelId: lfg.id, targetId: guest.user.id } },
          create: { channelId: lfg.id, targetId: guest.user.id, type: 1, allow: allow ? P.CreateInstantInvite : 0n, deny: 0n },
          update: { allow: allow ? P.CreateInstantInvite : 0n },
        }),
      );
    const refusal = { code: 50013, message: expect.stringContaining("CREATE_INSTANT_INVITE") as string };

    const link = () => guest.api.patch(`/lobbies/${lobby.id}/channel-linking`, { channel_id: lfg.id });
    expect((await link()).body).toEqual(refusal);
    await setInvitePermission(true);
    expect((await link()).status).toBe(200);
    expect((await server.post(`/lobbies/${lobby.id}/members/${stranger.user.id}/invites`)).status).toBe(200);

    // The linking member lost it since: nobody gets an invite through the lobby.
    await setInvitePermission(false);
    const invitesBefore = await app.db.invite.count({ where: { guildId: guild.id } });
    expect((await server.post(`/lobbies/${lobby.id}/members/${stranger.user.id}/invites`)).body).toEqual(refusal);
    expect((await stranger.api.post(`/lobbies/${lobby.id}/members/@me/invites`)).body).toEqual(refusal);
    expect(await app.db.invite.count({ where: { guildId: guild.id } })).toBe(invitesBefore);
  });

  it("fails without a linked channel, for non-members and with the wrong token kind", async () => {
    const { host, lobby, server, token, application } = await linkedGame();
    expect((await host.api.post(`/lobbies/${lobby.id}/members/@me/invites`)).body.code).toBe(10003);
    expect((await server.post(`/lobbies/${lobby.id}/members/${host.user.id}/invites`)).body.code).toBe(10003);
    const outsider = await kit.player(application.id);
    expect((await outsider.api.post(`/lobbies/${lobby.id}/members/@me/invites`)).body.code).toBe(50001);
    expect((await server.post(`/lobbies/${lobby.id}/members/${outsider.user.id}/invites`)).body.code).toBe(10007);
    expect((await app.as(bot(token)).post(`/lobbies/${lobby.id}/members/@me/invites`)).status).toBe(401);
    expect((await host.api.post(`/lobbies/${lobby.id}/members/${host.user.id}/invites`)).status).toBe(401);
  });
});
