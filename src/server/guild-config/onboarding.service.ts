import { ChannelType, GatewayDispatchEvents, GuildOnboardingPromptType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { enforce } from "~/server/permissions/denial.ts";
import { onboardingDenial } from "~/server/guilds/guild-section-rules.ts";
import type { ChannelRow } from "~/server/channels/channel.dto.ts";
import type { ServiceContext } from "~/server/context.ts";
import { addFieldError, ApiError, ERRORS, type ErrorTree } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { toGuildObject } from "~/server/guilds/guild.dto.ts";
import { roleChangeDenial } from "~/server/members/member-rules.ts";
import { channelPermissions, loadGuildAccess, toOverwriteInputs, type GuildAccess } from "~/server/permissions/guild-access.ts";
import { computePermissions, hasAll, hasPermission, roleHolder } from "~/server/permissions/permissions.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { onboardingAuditEntries } from "./onboarding-audit.ts";
import { isOnboardingUnset, toOnboarding, type Onboarding, type OnboardingEmoji, type OnboardingPrompt } from "./onboarding.dto.ts";
import { checkOnboardingRule } from "./onboarding-rule.ts";
import type { TOnboardingBody, TOnboardingPrompt } from "./onboarding.schema.ts";
import { settingEmoji } from "./setting-emoji.ts";

/** A channel the dashboard offers for onboarding, with whether it counts toward the "everyone can chat" half of the rule. */
type OnboardingChannel = { id: string; name: string; type: number; everyone_can_chat: boolean };
/** The channels of one category (or of none, first), in the guild's order. */
export type OnboardingChannelGroup = { category: { id: string; name: string } | null; channels: OnboardingChannel[] };

/** Default channels and option channels: any channel of the guild but a category (threads are not in its channel list). */
function isOnboardingChannel(channel: ChannelRow): boolean {
  return channel.type !== ChannelType.GuildCategory;
}

/**
 * Whether @everyone can view and send messages in a channel: the @everyone role's permissions
 * with the channel's overwrites, by the permissions module. Channels carry their own overwrites
 * (a category's are copied when a channel is synced), so the category is not consulted.
 */
function everyoneCanChat(guildId: string, everyonePermissions: bigint, channel: ChannelRow): boolean {
  const permissions = computePermissions({
    guildId,
    holder: roleHolder(everyonePermissions),
    channel: { type: channel.type, overwrites: toOverwriteInputs(channel.overwrites) },
  });
  return hasAll(permissions, P.ViewChannel, P.SendMessages);
}

/** The guild's onboarding as stored, its eligible channels, and the rule's predicate over them. */
async function loadOnboarding(access: GuildAccess) {
  const rows = (await access.state.channels()).rows.filter(isOnboardingChannel);
  const channels = new Map(rows.map((row) => [row.id, row]));
  const roles = new Map(access.roles.map((role) => [role.id, role]));
  const everyone = roles.get(access.guild.id)?.permissions ?? 0n;
  const current = toOnboarding(access.guild, { channel: (id) => channels.has(id), role: (id) => roles.has(id) }, access.state.expressions.emojis);
  const canEveryoneChat = (id: string) => {
    const channel = channels.get(id);
    return channel !== undefined && everyoneCanChat(access.guild.id, everyone, channel);
  };
  return { current, channels, roles, rows, everyone, canEveryoneChat };
}

/** GET /guilds/{guild.id}/onboarding: any member. */
export async function getOnboarding(ctx: ServiceContext, input: { guildId: string }): Promise<Onboarding> {
  const access = await loadGuildAccess(ctx, input.guildId);
  return (await loadOnboarding(access)).current;
}

/** The channels the dashboard offers, grouped by category, each with whether @everyone can chat in it; only channels the user can view. */
export async function listOnboardingChannels(ctx: ServiceContext, input: { guildId: string }): Promise<OnboardingChannelGroup[]> {
  const access = await loadGuildAccess(ctx, input.guildId);
  const { rows, everyone } = await loadOnboarding(access);
  const categories = (await access.state.channels()).rows.filter((row) => row.type === ChannelType.GuildCategory);
  const categoryIds = new Set(categories.map((category) => category.id));
  const visible = rows.filter((row) =>
    hasPermission(channelPermissions(access, { type: row.type, overwrites: toOverwriteInputs(row.overwrites) }), P.ViewChannel),
  );
  const groups = [null, ...categories].map((category) => ({
    category: category && { id: category.id, name: category.name },
    channels: visible
      .filter((row) => (row.parentId && categoryIds.has(row.parentId) ? row.parentId : null) === (category?.id ?? null))
      .map((row) => ({ id: row.id, name: row.name, type: row.type, everyone_can_chat: everyoneCanChat(access.guild.id, everyone, row) })),
  }));
  return groups.filter((group) => group.channels.length > 0);
}

/**
 * PUT /guilds/{guild.id}/onboarding (spec 2.4, 8): MANAGE_GUILD and MANAGE_ROLES. Prompts
 * and options keep the ids they name when those exist, else get new ones; their channels,
 * roles and custom emojis must be the guild's. While enabled (or being enabled) the requirement must hold:
 * 350000 when enabling, 350001 when already enabled, naming the short count. Audit entries
 * per onboarding-audit.ts; the guild row's change fires Guild Update.
 */
export async function modifyOnboarding(ctx: ServiceContext, input: { guildId: string; body: TOnboardingBody }): Promise<Onboarding> {
  const { body } = input;
  const access = await loadGuildAccess(ctx, input.guildId);
  enforce(onboardingDenial(access));
  const loaded = await loadOnboarding(access);
  const { current } = loaded;
  const errors: ErrorTree = {};
  const next: Onboarding = {
    guild_id: current.guild_id,
    prompts: body.prompts ? buildPrompts(body.prompts, current.prompts, { ...loaded, access }, errors) : current.prompts,
    default_channel_ids: body.default_channel_ids ?? current.default_channel_ids,
    enabled: body.enabled ?? current.enabled,
    mode: body.mode ?? current.mode,
  };
  body.default_channel_ids?.forEach((id, index) => {
    if (!loaded.channels.has(id)) addFieldError(errors, ["default_channel_ids", index], { code: "CHANNEL_INVALID", message: "Not a channel of this guild." });
  });
  if (Object.keys(errors).length > 0) throw new ApiError("INVALID_FORM_BODY", { errors });
  if (JSON.stringify(next) === JSON.stringify(current)) return current;

  if (next.enabled) {
    const check = checkOnboardingRule(next, loaded.canEveryoneChat);
    if (check.shortfall !== null) {
      const key = current.enabled ? "ONBOARDING_BELOW_REQUIREMENTS" : "ONBOARDING_REQUIREMENTS_NOT_MET";
      throw new ApiError(key, { message: `${ERRORS[key].message}: ${check.shortfall}` });
    }
  }

  return runChange(ctx, async ({ tx, emit, audit }) => {
    const updated = await tx.guild.update({
      where: { id: access.guild.id },
      data: {
        onboardingEnabled: next.enabled,
        onboardingMode: next.mode,
        onboardingDefaultChannelIds: JSON.stringify(next.default_channel_ids),
        onboardingPrompts: JSON.stringify(next.prompts),
      },
    });
    for (const entry of onboardingAuditEntries(current, next, isOnboardingUnset(access.guild))) await audit({ guildId: updated.id, ...entry });
    // The platform names no onboarding event; the guild row changed, so Guild Update.
    await emit(GatewayDispatchEvents.GuildUpdate, toGuildObject(updated, access.roles, access.state.expressions));
    return next;
  });
}

type Targets = Awaited<ReturnType<typeof loadOnboarding>> & { access: GuildAccess };

/** An option's emoji as stored: a custom one as the guild has it (an unknown id recorded in `errors`), else a unicode one by name. */
function optionEmoji(option: TOnboardingPrompt["options"][number], access: GuildAccess, at: readonly PropertyKey[], errors: ErrorTree): OnboardingEmoji {
  if (!option.emoji_id) return { id: null, name: option.emoji_name || null, animated: false };
  const custom = settingEmoji(access.state.expressions.emojis, option.emoji_id);
  if ("emoji" in custom) return custom.emoji;
  addFieldError(errors, [...at, "emoji_id"], custom.error);
  return { id: option.emoji_id, name: null, animated: false };
}

/** Request prompts → stored ones, recording every unknown channel, role or emoji, or role the actor may not hand out, in `errors`. */
function buildPrompts(input: readonly TOnboardingPrompt[], current: readonly OnboardingPrompt[], targets: Targets, errors: ErrorTree): OnboardingPrompt[] {
  const promptIds = new Set(current.map((prompt) => prompt.id));
  const optionIds = new Set(current.flatMap((prompt) => prompt.options.map((option) => option.id)));
  // Roles some option already grants were allowed when added; only new ones meet the hierarchy.
  const grantedRoles = new Set(current.flatMap((prompt) => prompt.options.flatMap((option) => option.role_ids)));
  const taken = new Set<string>();
  const keepOrNew = (id: string | null | undefined, known: ReadonlySet<string>) => {
    const kept = id && known.has(id) && !taken.has(id) ? id : newId();
    taken.add(kept);
    return kept;
  };

  return input.map((prompt, p) => ({
    id: keepOrNew(prompt.id, promptIds),
    type: prompt.type ?? GuildOnboardingPromptType.MultipleChoice,
    title: prompt.title,
    options: prompt.options.map((option, o) => {
      const at = ["prompts", p, "options", o];
      const channelIds = option.channel_ids ?? [];
      const roleIds = option.role_ids ?? [];
      channelIds.forEach((id, index) => {
        if (!targets.channels.has(id))
          addFieldError(errors, [...at, "channel_ids", index], { code: "CHANNEL_INVALID", message: "Not a channel of this guild." });
      });
      roleIds.forEach((id, index) => {
        const role = targets.roles.get(id);
        const problem = !role ? "Not a role of this guild." : grantedRoles.has(id) ? null : roleChangeDenial(targets.access, role)?.reason;
        if (problem) addFieldError(errors, [...at, "role_ids", index], { code: "ROLE_INVALID", message: problem });
      });
      return {
        id: keepOrNew(option.id, optionIds),
        title: option.title,
        description: option.description ?? "",
        emoji: optionEmoji(option, targets.access, at, errors),
        role_ids: roleIds,
        channel_ids: channelIds,
      };
    }),
    single_select: prompt.single_select ?? false,
    required: prompt.required ?? false,
    in_onboarding: prompt.in_onboarding ?? true,
  }));
}
