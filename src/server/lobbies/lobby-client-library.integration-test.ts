import { DiscordAPIError } from "@discordjs/rest";
import { describe, expect, it } from "vitest";
import type { LobbyMessageObject, LobbyObject } from "~/server/lobbies/lobby.schema.ts";
import { useLibraryServer } from "~/test/library-server.ts";
import { lobbyKit } from "~/test/lobby-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
// The platform's own client library over HTTP: a game server with the Bot token, a game client with a Bearer token.
const library = useLibraryServer(app);
const kit = lobbyKit(app);

describe("@discordjs/rest against Guildhall's lobbies", () => {
  it("runs a match: the server makes the lobby, players join by secret, talk and leave", async () => {
    const { token, players } = await kit.game(2);
    const server = library.client(token);
    const [host, guest] = players.map((player) => library.client(player.token, "Bearer"));

    const joined = (await host!.put("/lobbies", { body: { secret: "lib-match", member_metadata: { seat: "1" } } })) as LobbyObject;
    await guest!.put("/lobbies", { body: { secret: "lib-match" } });
    const read = (await server.get(`/lobbies/${joined.id}`)) as LobbyObject;
    expect(read.members.map((member) => member.id)).toEqual(players.map((player) => player.user.id));

    const sent = (await guest!.post(`/lobbies/${joined.id}/messages`, { body: { content: "ready" } })) as LobbyMessageObject;
    await server.put(`/lobbies/${joined.id}/messages/${sent.id}/moderation-metadata`, { body: { reviewed: "yes" } });
    const messages = (await host!.get(`/lobbies/${joined.id}/messages`)) as LobbyMessageObject[];
    expect(messages.map((message) => [message.content, message.moderation_metadata])).toEqual([["ready", { reviewed: "yes" }]]);

    await guest!.delete(`/lobbies/${joined.id}/members/@me`);
    await server.delete(`/lobbies/${joined.id}`);
    const gone = await server.get(`/lobbies/${joined.id}`).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(DiscordAPIError);
    expect((gone as DiscordAPIError).code).toBe(10031);
  });
});
