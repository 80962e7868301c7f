import { ChannelType, GatewayDispatchEvents, GuildFeature } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { runChange } from "~/server/events/change.ts";
import { GUILD_OBJECT_INCLUDE, parseFeatures, toGuildObject } from "~/server/guilds/guild.dto.ts";
import { createInvite } from "~/server/invites/invite.service.ts";
import { setVanityUrl } from "~/server/invites/vanity.service.ts";

/** The demo guild's vanity code: its invite page is /invite/guildhall-demo. */
const DEMO_VANITY_CODE = "guildhall-demo";

/** A few invites for the Invites page and the public invite page, and a vanity URL; once. */
export async function seedInvites(ctx: ServiceContext, guildId: string, membersRoleId: string): Promise<string[]> {
  const { db } = ctx;
  if ((await db.invite.count({ where: { guildId } })) > 0) return [];
  const general = await db.channel.findFirstOrThrow({ where: { guildId, type: ChannelType.GuildText, name: "general" } });
  await createInvite(ctx, { channelId: general.id, body: { max_age: 0, unique: true } });
  await createInvite(ctx, { channelId: general.id, body: { max_age: 7 * 24 * 60 * 60, max_uses: 10, unique: true } });
  await createInvite(ctx, { channelId: general.id, body: { max_age: 24 * 60 * 60, role_ids: [membersRoleId], temporary: true, unique: true } });

  // VANITY_URL is the platform's to grant, as an operator does here.
  const guild = await db.guild.findUniqueOrThrow({ where: { id: guildId }, include: GUILD_OBJECT_INCLUDE });
  if (!parseFeatures(guild.features).includes(GuildFeature.VanityURL)) {
    await runChange({ db, actor: null }, async ({ tx, emit }) => {
      const features = [...parseFeatures(guild.features), GuildFeature.VanityURL];
      const updated = await tx.guild.update({ where: { id: guildId }, data: { features: JSON.stringify(features) } });
      await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, guild.roles, guild));
    });
  }
  await setVanityUrl(ctx, { guildId, code: DEMO_VANITY_CODE });
  return ["3 invites", `vanity URL ${DEMO_VANITY_CODE}`];
}
