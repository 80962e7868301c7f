// Acting as people (test mode): the twin makes a user and acts as them through the services
// the dashboard's signed-in user goes through, so every rule and permission is checked as that
// user and bots hear the same events a person's client would cause.
import { PresenceUpdateStatus, type GatewayActivity } from "discord-api-types/v10";
import type { z } from "zod";
import type { User } from "~/generated/prisma/client.ts";
import { createUser, issueBearerToken } from "~/server/applications/application.service.ts";
import { dashboardActor, type OAuth2Scope } from "~/server/auth/actor.ts";
import type { ServiceContext } from "~/server/context.ts";
import type { Db } from "~/server/db/client.ts";
import { isUniqueViolation } from "~/server/db/prisma-errors.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { acceptInvite } from "~/server/invites/accept-invite.service.ts";
import { getInvite } from "~/server/invites/invite.service.ts";
import { toMemberObject, type MemberObject } from "~/server/members/member.dto.ts";
import { leaveGuild } from "~/server/members/member.service.ts";
import { readMember } from "~/server/members/member-queries.ts";
import { joinGuild } from "~/server/members/membership.ts";
import { toVoiceStateObject, updateOwnVoiceState } from "~/server/members/voice.service.ts";
import { sendMessage } from "~/server/messages/message.service.ts";
import { scopeDenial } from "~/server/oauth2/scopes.ts";
import { loadGuildState } from "~/server/permissions/guild-access.ts";
import { setSessionPresence } from "~/server/presences/presence.service.ts";
import { toUserObject } from "~/server/users/user.dto.ts";
import { endHeldSession, heldSessionId, holdSession } from "./twin-held-session.ts";
import type { ZTwinMessageBodySchema, ZTwinPresenceBodySchema, ZTwinUserBodySchema, ZTwinVoiceStateBodySchema } from "./twin-people.schema.ts";

/** The person the twin acts as: 10013 when there is no such user; a bot acts through its own token, never the twin. */
async function personOf(db: Db, userId: string): Promise<User> {
  const user = await db.user.findUnique({ where: { id: userId } });
  if (!user) throw new ApiError("UNKNOWN_USER");
  if (user.bot) throw invalidField(["user_id"], "TWIN_USER_IS_BOT", "The twin acts as people; a bot acts through its own token.");
  return user;
}

/** What acting as the person looks like to a service: their signed-in self, as on the dashboard. */
function asPerson(db: Db, userId: string): ServiceContext {
  return { db, actor: dashboardActor(userId) };
}

/** POST /__twin/users: a new person, with a bearer token granted to an application when asked (the grant's scopes as the token endpoint allows them). */
export async function createPerson(db: Db, body: z.output<typeof ZTwinUserBodySchema>) {
  const applicationId = body.bearer_for_application;
  if (applicationId) {
    const application = await db.application.findUnique({ where: { id: applicationId }, select: { partner: true } });
    if (!application) throw new ApiError("UNKNOWN_APPLICATION");
    const denial = scopeDenial(body.scopes, application);
    if (denial) throw invalidField(["scopes"], "BASE_TYPE_INVALID", denial);
  }
  const user = await runChange({ db, actor: null }, ({ tx }) => createUser(tx, { username: body.username, globalName: body.global_name }));
  // scopeDenial accepted every scope above, so each is a scope name.
  const bearer = applicationId ? await issueBearerToken({ db, actor: null }, { userId: user.id, applicationId, scopes: body.scopes as OAuth2Scope[] }) : null;
  return { user: toUserObject(user), ...(bearer && { bearer_token: bearer }) };
}

/** PUT /__twin/guilds/:guildId/members/:userId: the person joins through the joining service; null when already a member. */
export async function joinAsPerson(db: Db, input: { guildId: string; userId: string }): Promise<MemberObject | null> {
  await personOf(db, input.userId);
  const { guild } = await loadGuildState(db, input.guildId);
  try {
    const row = await runChange(asPerson(db, input.userId), (change) => joinGuild(change, { guild, userId: input.userId }));
    return row && toMemberObject(row);
  } catch (error) {
    // A concurrent join committed first: they are a member now, as with any repeat.
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** DELETE /__twin/guilds/:guildId/members/:userId: the person leaves as DELETE /users/@me/guilds/{id} does (the owner cannot: 50055). */
export async function leaveAsPerson(db: Db, input: { guildId: string; userId: string }): Promise<void> {
  await personOf(db, input.userId);
  await loadGuildState(db, input.guildId);
  if (!(await readMember(db, input.guildId, input.userId))) throw new ApiError("UNKNOWN_MEMBER");
  await leaveGuild(asPerson(db, input.userId), { guildId: input.guildId });
}

/** POST /__twin/invites/:code/accept: the person accepts through the invite service; answers as accepting an invite does. */
export async function acceptInviteAsPerson(db: Db, input: { code: string; userId: string }) {
  await personOf(db, input.userId);
  // The invite as it was when accepted (the use that reaches max_uses deletes it).
  const invite = await getInvite(db, { code: input.code, query: {} });
  const { joined } = await acceptInvite(asPerson(db, input.userId), { code: input.code });
  return { ...invite, new_member: joined };
}

/** POST /__twin/channels/:channelId/messages: the person posts through the messages service, with their permissions in the channel. */
export async function postAsPerson(db: Db, input: { channelId: string; body: z.output<typeof ZTwinMessageBodySchema> }) {
  const { user_id: userId, ...body } = input.body;
  await personOf(db, userId);
  return sendMessage(asPerson(db, userId), { channelId: input.channelId, body, files: [] });
}

/**
 * PUT /__twin/guilds/:guildId/voice-states/:userId: the person joins, moves or leaves voice as a
 * client's Update Voice State does (voiceJoinDenial: VIEW_CHANNEL, CONNECT, the user limit). The
 * connection is held by the person's held session. Null after leaving.
 */
export async function setVoiceAsPerson(db: Db, input: { guildId: string; userId: string; body: z.output<typeof ZTwinVoiceStateBodySchema> }) {
  const { guildId, userId, body } = input;
  await personOf(db, userId);
  await loadGuildState(db, guildId);
  if (!(await readMember(db, guildId, userId))) throw new ApiError("UNKNOWN_MEMBER");
  const update = { guildId, channelId: body.channel_id, selfMute: body.self_mute, selfDeaf: body.self_deaf };
  // Leaving needs no held session; joining holds one first (the voice state names it).
  const gatewaySessionId = body.channel_id === null ? heldSessionId(userId) : await holdSession(db, userId);
  await updateOwnVoiceState(asPerson(db, userId), { ...update, gatewaySessionId });
  if (body.channel_id === null) return null;
  const state = await db.voiceState.findUnique({ where: { guildId_userId: { guildId, userId } } });
  // Left meanwhile (another call, or the member removed).
  return state && toVoiceStateObject(state, await readMember(db, guildId, userId));
}

/**
 * PUT /__twin/users/:userId/presence: what the person's client sets (op 3) on their held
 * session, announced where others see a change (visiblePresence decides what they see).
 * `offline` closes the client: the held session ends, with its voice.
 */
export async function setPresenceAsPerson(db: Db, input: { userId: string; body: z.output<typeof ZTwinPresenceBodySchema> }) {
  const { userId, body } = input;
  await personOf(db, userId);
  if (body.status === PresenceUpdateStatus.Offline) {
    await endHeldSession(db, userId);
    return { user: { id: userId }, status: body.status, activities: [] };
  }
  const sessionId = await holdSession(db, userId);
  await setSessionPresence(db, { id: sessionId, userId }, body, new Date());
  const row = await db.presence.findUnique({ where: { sessionId }, select: { status: true, activities: true } });
  return { user: { id: userId }, status: row?.status ?? body.status, activities: row ? (JSON.parse(row.activities) as GatewayActivity[]) : [] };
}
