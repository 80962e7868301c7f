// What the guild-wide dashboard sections read beyond the REST objects: why the signed-in user
// may not use each, decided by the rules their services enforce (guild-section-rules.ts).
import { ChannelType } from "discord-api-types/v10";
import type { ServiceContext } from "~/server/context.ts";
import { reasonOf } from "~/server/permissions/denial.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs } from "~/server/permissions/guild-access.ts";
import {
  auditLogDenial,
  featureDenial,
  GUILD_IMAGE_FIELDS,
  guildImageDenial,
  inviteCreateDenial,
  inviteListDenial,
  inviteRevokeDenial,
  manageGuildDenial,
  onboardingDenial,
  ownerDenial,
  welcomeScreenReadDenial,
  type GuildImageField,
  type MutableFeature,
} from "./guild-section-rules.ts";
import { parseFeatures } from "./guild.dto.ts";
import { MUTABLE_FEATURES } from "./guild.schema.ts";

/** Null where the viewer may, else the reason. */
type Reason = string | null;

export type SectionDenials = {
  /** PATCH /guilds/{guild.id}: the settings form, its screening switch and vanity URL. */
  settings: Reason;
  /** Switching each feature the settings form lists. */
  features: Record<MutableFeature, Reason>;
  /** Setting each of the guild's images: the feature it needs. */
  images: Record<GuildImageField, Reason>;
  deleteGuild: Reason;
  widget: Reason;
  welcomeScreen: { read: Reason; edit: Reason };
  onboarding: Reason;
  auditLog: Reason;
  integrations: Reason;
  /** Incident actions (the Safety page). */
  safety: Reason;
  invites: {
    list: Reason;
    /** Null when some channel lets the viewer create an invite. */
    create: Reason;
    /** Revoking an invite, by its channel's id. */
    revoke: Record<string, Reason>;
  };
};

/** Why the viewer may not use each guild-wide section of the dashboard. */
export async function listSectionDenials(ctx: ServiceContext, input: { guildId: string }): Promise<SectionDenials> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const manageGuild = reasonOf(manageGuildDenial(access));
  const features = Object.fromEntries(
    (Object.keys(MUTABLE_FEATURES) as MutableFeature[]).map((feature) => [feature, reasonOf(featureDenial(access, feature))]),
  ) as Record<MutableFeature, Reason>;
  const guildFeatures = parseFeatures(access.guild.features);
  const images = Object.fromEntries(GUILD_IMAGE_FIELDS.map((field) => [field, reasonOf(guildImageDenial(guildFeatures, field))])) as Record<
    GuildImageField,
    Reason
  >;
  const revoke: Record<string, Reason> = {};
  let anywhere = 0n;
  for (const channel of (await access.state.channels()).byId.values()) {
    const inChannel = channelPermissions(access, { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) });
    revoke[channel.id] = reasonOf(inviteRevokeDenial(access, inChannel));
    if (channel.type !== ChannelType.GuildCategory) anywhere |= inChannel;
  }
  return {
    settings: manageGuild,
    features,
    images,
    deleteGuild: reasonOf(ownerDenial(access)),
    widget: manageGuild,
    welcomeScreen: { read: reasonOf(welcomeScreenReadDenial(access)), edit: manageGuild },
    onboarding: reasonOf(onboardingDenial(access)),
    auditLog: reasonOf(auditLogDenial(access)),
    integrations: manageGuild,
    safety: manageGuild,
    invites: { list: reasonOf(inviteListDenial(access)), create: reasonOf(inviteCreateDenial(access, anywhere, " in any channel")), revoke },
  };
}
