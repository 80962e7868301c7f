import { GatewayDispatchEvents } from "discord-api-types/v10";
import { runChange, type ChangeContext } from "~/server/events/change.ts";
import { toUserObject } from "~/server/users/user.dto.ts";

/**
 * Adds a user to a guild with roles, or gives an existing member the roles they lack;
 * fires Guild Member Add or Update. Operators' path (seed, tests): no permission checks.
 */
export async function addGuildMember(ctx: ChangeContext, input: { guildId: string; userId: string; roleIds?: readonly string[] }): Promise<void> {
  const { guildId, userId } = input;
  await runChange(ctx, async ({ tx, emit }) => {
    const existing = await tx.member.findUnique({ where: { guildId_userId: { guildId, userId } }, select: { roles: { select: { roleId: true } } } });
    const held = new Set(existing?.roles.map((r) => r.roleId));
    const missing = (input.roleIds ?? []).filter((roleId) => !held.has(roleId));
    if (existing && missing.length === 0) return;
    const member = existing
      ? await tx.member.update({
          where: { guildId_userId: { guildId, userId } },
          data: { roles: { create: missing.map((roleId) => ({ roleId })) } },
          include: { user: true, roles: true },
        })
      : await tx.member.create({ data: { guildId, userId, roles: { create: missing.map((roleId) => ({ roleId })) } }, include: { user: true, roles: true } });
    await emit(existing ? GatewayDispatchEvents.GuildMemberUpdate : GatewayDispatchEvents.GuildMemberAdd, guildId, {
      guild_id: guildId,
      user: toUserObject(member.user),
      nick: member.nick,
      roles: member.roles.map((r) => r.roleId),
      joined_at: member.joinedAt.toISOString(),
      deaf: member.deaf,
      mute: member.mute,
      flags: member.flags,
      pending: member.pending,
    });
  });
}
