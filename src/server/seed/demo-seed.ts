import { ApplicationFlags, ChannelType, GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { setApprovedIntents } from "~/server/applications/intents.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createApplication, createUser, newUserWithPassword } from "~/server/applications/application.service.ts";
import { createGuildChannel } from "~/server/channels/create-channel.service.ts";
import type { Db } from "~/server/db/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { runChange } from "~/server/events/change.ts";
import { parseFeatures } from "~/server/guilds/guild.dto.ts";
import { createGuild, modifyGuild } from "~/server/guilds/guild.service.ts";
import { addGuildMember } from "~/server/members/member.service.ts";
import { serializePermissions } from "~/server/permissions/permissions.ts";
import { createRole } from "~/server/roles/role.service.ts";
import { seedCrowd } from "./demo-crowd.ts";
import { seedIntegrations } from "./demo-integrations.ts";
import { seedInvites } from "./demo-invites.ts";
import { seedMessages } from "./demo-messages.ts";
import { seedThreads } from "./demo-threads.ts";
import { seedWelcomeScreen } from "./demo-welcome.ts";
import { seedWidget } from "./demo-widget.ts";
import { seedLobby } from "./demo-lobbies.ts";

// Demo data for trying the dashboard and the API by hand. Every item is looked up by
// its name before it is made, so running the seed again (or after a failed run)
// completes what is missing and never duplicates anything. Tests never rely on it.

export const DEMO_PASSWORD = "guildhall-demo";
export const DEMO_USER = { username: "demo", globalName: "Demo User", email: "demo@guildhall.local", password: DEMO_PASSWORD };
const DEMO_FRIEND = { username: "friend", globalName: "Demo Friend", email: "friend@guildhall.local", password: DEMO_PASSWORD };
export const DEMO_GUILD_NAME = "Guildhall Demo";
export const DEMO_APP_NAME = "Demo Bot";

const MODERATION_PERMISSIONS = [
  P.KickMembers,
  P.BanMembers,
  P.ModerateMembers,
  P.ManageMessages,
  // Pinning is its own permission since the platform split it from MANAGE_MESSAGES.
  P.PinMessages,
  P.ManageNicknames,
  P.ManageThreads,
  P.ViewAuditLog,
  P.MuteMembers,
  P.MoveMembers,
].reduce((all, bit) => all | bit, 0n);

const ROLES = {
  // Created in this order: a new role lands just above @everyone, so Moderators ends up on top.
  moderators: { name: "Moderators", color: 0xe67e22, hoist: true, mentionable: true, permissions: MODERATION_PERMISSIONS },
  members: { name: "Members", color: 0x3498db, hoist: false, mentionable: false, permissions: 0n },
} as const;

export type DemoSeed = {
  user: { id: string; username: string; email: string; password: string };
  friend: { id: string; username: string; email: string; password: string };
  application: { id: string; name: string; botUserId: string };
  /** The bot token, only when the application was created by this run (it is never stored). */
  botToken: string | null;
  guild: { id: string; name: string };
  /** What this run created, in order; empty when everything already existed. */
  created: string[];
};

export async function seedDemo(db: Db): Promise<DemoSeed> {
  const created: string[] = [];

  async function findOrCreateUser(input: typeof DEMO_USER) {
    const existing = await db.user.findUnique({ where: { email: input.email } });
    if (existing) return existing;
    created.push(`user ${input.username}`);
    const user = await newUserWithPassword(input);
    return runChange({ db, actor: null }, ({ tx }) => createUser(tx, user));
  }
  const user = await findOrCreateUser(DEMO_USER);
  const friend = await findOrCreateUser(DEMO_FRIEND);

  let botToken: string | null = null;
  let application = await db.application.findFirst({ where: { ownerId: user.id, name: DEMO_APP_NAME } });
  if (!application) {
    const made = await runChange({ db, actor: null }, ({ tx }) => createApplication(tx, { name: DEMO_APP_NAME, ownerId: user.id }));
    application = made.application;
    botToken = made.botToken;
    created.push(`application ${DEMO_APP_NAME}`);
  }

  // The demo bot may list members (an operator's approval, as for a verified app).
  if (!(application.flags & ApplicationFlags.GatewayGuildMembers)) {
    await setApprovedIntents({ db, actor: null }, application.id, ["GUILD_MEMBERS"], true);
    created.push("GUILD_MEMBERS intent");
  }

  const ctx: ServiceContext = { db, actor: dashboardActor(user.id), auditReason: "Demo seed" };
  const existingGuild = await db.guild.findFirst({ where: { ownerId: user.id, name: DEMO_GUILD_NAME }, select: { id: true } });
  if (!existingGuild) created.push(`guild ${DEMO_GUILD_NAME}`);
  const guildId = existingGuild?.id ?? (await createGuild(ctx, { name: DEMO_GUILD_NAME })).id;

  const roleIds: Record<keyof typeof ROLES, string> = { moderators: "", members: "" };
  for (const [key, role] of Object.entries(ROLES) as [keyof typeof ROLES, (typeof ROLES)[keyof typeof ROLES]][]) {
    const existing = await db.role.findFirst({ where: { guildId, name: role.name }, select: { id: true } });
    if (existing) {
      roleIds[key] = existing.id;
      continue;
    }
    const body = { name: role.name, color: role.color, hoist: role.hoist, mentionable: role.mentionable, permissions: serializePermissions(role.permissions) };
    roleIds[key] = (await createRole(ctx, { guildId, body })).id;
    created.push(`role ${role.name}`);
  }

  async function findOrCreateChannel(name: string, type: ChannelType, extra: { parentId?: string; topic?: string; private?: boolean } = {}): Promise<string> {
    const existing = await db.channel.findFirst({ where: { guildId, name, type }, select: { id: true } });
    if (existing) return existing.id;
    const overwrites = extra.private
      ? [
          { id: guildId, type: 0 as const, allow: 0n, deny: P.ViewChannel },
          { id: roleIds.moderators, type: 0 as const, allow: P.ViewChannel, deny: 0n },
        ]
      : undefined;
    const channel = await createGuildChannel(ctx, {
      guildId: guildId,
      body: { name, type, parent_id: extra.parentId ?? null, topic: extra.topic ?? null, permission_overwrites: overwrites },
    });
    created.push(`channel ${name}`);
    return channel.id;
  }

  // createGuild already made "Text Channels" with #general and "Voice Channels" with General.
  const textCategory = await findOrCreateChannel("Text Channels", ChannelType.GuildCategory);
  const voiceCategory = await findOrCreateChannel("Voice Channels", ChannelType.GuildCategory);
  const information = await findOrCreateChannel("Information", ChannelType.GuildCategory);
  const rules = await findOrCreateChannel("rules", ChannelType.GuildText, { parentId: information, topic: "Be kind. No spam." });
  await findOrCreateChannel("off-topic", ChannelType.GuildText, { parentId: textCategory, topic: "Anything goes (within the rules)." });
  const moderators = await findOrCreateChannel("moderators", ChannelType.GuildText, { parentId: textCategory, topic: "Moderators only.", private: true });
  await findOrCreateChannel("Gaming", ChannelType.GuildVoice, { parentId: voiceCategory });

  // Announcement channels need a Community guild, which needs rules and updates channels.
  const guild = await db.guild.findUniqueOrThrow({ where: { id: guildId } });
  if (!parseFeatures(guild.features).includes(GuildFeature.Community)) {
    await modifyGuild(ctx, {
      guildId,
      body: {
        verification_level: 1,
        explicit_content_filter: 2,
        rules_channel_id: rules,
        public_updates_channel_id: moderators,
        description: "A guild to try Guildhall with.",
        features: [...parseFeatures(guild.features), GuildFeature.Community],
      },
    });
    created.push("community features");
  }
  await findOrCreateChannel("announcements", ChannelType.GuildAnnouncement, { parentId: information, topic: "News about this guild." });

  const memberships: [userId: string, roleIds: string[]][] = [
    [user.id, [roleIds.moderators, roleIds.members]],
    [friend.id, [roleIds.members]],
    [application.botUserId, [roleIds.moderators]],
  ];
  for (const [userId, roles] of memberships) {
    const member = await db.member.findUnique({ where: { guildId_userId: { guildId, userId } }, select: { roles: { select: { roleId: true } } } });
    if (member && roles.every((roleId) => member.roles.some((r) => r.roleId === roleId))) continue;
    await addGuildMember(ctx, { guildId, userId, roleIds: roles });
    created.push(`membership ${userId === user.id ? user.username : userId === friend.id ? friend.username : "bot"}`);
  }

  created.push(...(await seedCrowd(ctx, guildId, roleIds.members)));
  created.push(...(await seedInvites(ctx, guildId, roleIds.members)));
  created.push(...(await seedThreads(ctx, guildId, friend.id)));
  created.push(...(await seedIntegrations(ctx, guildId, user.id)));
  created.push(...(await seedWelcomeScreen(ctx, guildId)));
  created.push(...(await seedWidget(ctx, guildId)));
  const general = await db.channel.findFirstOrThrow({ where: { guildId, type: ChannelType.GuildText, name: "general" }, select: { id: true } });
  created.push(
    ...(await seedLobby(db, { applicationId: application.id, botUserId: application.botUserId, userId: user.id, friendId: friend.id, channelId: general.id })),
  );
  created.push(
    ...(await seedMessages(ctx, guildId, {
      friendId: friend.id,
      bot: { userId: application.botUserId, applicationId: application.id },
      moderatorsRoleId: roleIds.moderators,
    })),
  );

  return {
    user: { id: user.id, username: user.username, email: DEMO_USER.email, password: DEMO_USER.password },
    friend: { id: friend.id, username: friend.username, email: DEMO_FRIEND.email, password: DEMO_FRIEND.password },
    application: { id: application.id, name: application.name, botUserId: application.botUserId },
    botToken,
    guild: { id: guildId, name: DEMO_GUILD_NAME },
    created,
  };
}
