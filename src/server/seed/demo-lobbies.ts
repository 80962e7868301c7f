import type { Actor } from "~/server/auth/actor.ts";
import type { Db } from "~/server/db/client.ts";
import { setLobbyChannelLink } from "~/server/lobbies/lobby-channel.service.ts";
import { putLobbyMember } from "~/server/lobbies/lobby-member.service.ts";
import { postLobbyMessage } from "~/server/lobbies/lobby-message.service.ts";
import { LOBBY_IDLE_TIMEOUT_MAX_SECONDS, LobbyMemberFlags } from "~/server/lobbies/lobby.schema.ts";
import { createOrJoinLobby } from "~/server/lobbies/lobby.service.ts";

const DEMO_LOBBY_SECRET = "demo-match";

/**
 * A match lobby of the demo application with the demo user and their friend, linked to
 * #general, with a few messages: made when there is no live one (lobbies end after a week idle).
 */
export async function seedLobby(
  db: Db,
  input: { applicationId: string; botUserId: string; userId: string; friendId: string; channelId: string },
): Promise<string[]> {
  const live = await db.lobby.findFirst({ where: { applicationId: input.applicationId, secret: DEMO_LOBBY_SECRET, expiresAt: { gt: new Date() } } });
  if (live) return [];
  const player = (userId: string): { db: Db; actor: Actor } => ({
    db,
    actor: { kind: "bearer", userId, applicationId: input.applicationId, scopes: new Set(["sdk.social_layer"]) },
  });
  const host = player(input.userId);
  const friend = player(input.friendId);
  const lobby = await createOrJoinLobby(host, {
    secret: DEMO_LOBBY_SECRET,
    lobby_metadata: { map: "harbor", mode: "ranked" },
    member_metadata: { team: "blue" },
    idle_timeout_seconds: LOBBY_IDLE_TIMEOUT_MAX_SECONDS,
  });
  await createOrJoinLobby(friend, { secret: DEMO_LOBBY_SECRET, member_metadata: { team: "red" } });
  // The game server lets the host link the lobby to the guild's channel.
  const server = { db, actor: { kind: "bot" as const, userId: input.botUserId, applicationId: input.applicationId, scopes: new Set<string>() } };
  await putLobbyMember(server, { lobbyId: lobby.id, userId: input.userId, body: { flags: LobbyMemberFlags.CanLinkLobby } });
  await setLobbyChannelLink(host, { lobbyId: lobby.id, channelId: input.channelId });
  await postLobbyMessage(host, { lobbyId: lobby.id, body: { content: "Ready when you are: harbor, ranked." } });
  await postLobbyMessage(friend, { lobbyId: lobby.id, body: { content: "Queueing now, gl hf!", metadata: { emote: "wave" } } });
  return ["lobby demo-match"];
}
