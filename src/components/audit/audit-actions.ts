// Every audit log action of the platform with a label that reads distinctly ("Member banned",
// "Ban lifted"), what its target is, and whether it makes, changes or removes it.
import { AuditLogEvent as A } from "discord-api-types/v10";
import type { Phase, Subject } from "./audit-changes.ts";
import type { RefKind } from "./audit-refs.ts";

export type Tone = "teal" | "blue" | "red" | "orange" | "gray";

export type ActionInfo = { label: string; tone: Tone; subject: Subject; phase: Phase; target: RefKind | null };

const make = (label: string, subject: Subject, phase: Phase, target: RefKind | null, tone?: Tone): ActionInfo => ({
  label,
  subject,
  phase,
  target,
  tone: tone ?? (phase === "create" ? "teal" : phase === "delete" ? "red" : "blue"),
});

/** Keyed by every AuditLogEvent value, so a new one fails to compile until it has words. */
const ACTIONS: Record<A, ActionInfo> = {
  [A.GuildUpdate]: make("Guild updated", "guild", "update", "guild"),
  [A.ChannelCreate]: make("Channel created", "channel", "create", "channel"),
  [A.ChannelUpdate]: make("Channel updated", "channel", "update", "channel"),
  [A.ChannelDelete]: make("Channel deleted", "channel", "delete", "channel"),
  [A.ChannelOverwriteCreate]: make("Channel override added", "overwrite", "create", "channel"),
  [A.ChannelOverwriteUpdate]: make("Channel override changed", "overwrite", "update", "channel"),
  [A.ChannelOverwriteDelete]: make("Channel override removed", "overwrite", "delete", "channel"),
  [A.MemberKick]: make("Member kicked", "member", "update", "user", "red"),
  [A.MemberPrune]: make("Members pruned", "member", "update", null, "red"),
  [A.MemberBanAdd]: make("Member banned", "member", "update", "user", "red"),
  [A.MemberBanRemove]: make("Ban lifted", "member", "update", "user", "teal"),
  [A.MemberUpdate]: make("Member updated", "member", "update", "user"),
  [A.MemberRoleUpdate]: make("Member roles changed", "member", "update", "user"),
  [A.MemberMove]: make("Members moved", "member", "update", null),
  [A.MemberDisconnect]: make("Members disconnected", "member", "update", null, "orange"),
  [A.BotAdd]: make("Bot added", "member", "create", "user"),
  [A.RoleCreate]: make("Role created", "role", "create", "role"),
  [A.RoleUpdate]: make("Role updated", "role", "update", "role"),
  [A.RoleDelete]: make("Role deleted", "role", "delete", "role"),
  [A.InviteCreate]: make("Invite created", "invite", "create", null),
  [A.InviteUpdate]: make("Invite updated", "invite", "update", null),
  [A.InviteDelete]: make("Invite revoked", "invite", "delete", null),
  [A.WebhookCreate]: make("Webhook created", "webhook", "create", "webhook"),
  [A.WebhookUpdate]: make("Webhook updated", "webhook", "update", "webhook"),
  [A.WebhookDelete]: make("Webhook deleted", "webhook", "delete", "webhook"),
  [A.EmojiCreate]: make("Emoji added", "other", "create", null),
  [A.EmojiUpdate]: make("Emoji updated", "other", "update", null),
  [A.EmojiDelete]: make("Emoji deleted", "other", "delete", null),
  [A.MessageDelete]: make("Message deleted", "other", "update", null, "red"),
  [A.MessageBulkDelete]: make("Messages bulk deleted", "other", "update", "channel", "red"),
  [A.MessagePin]: make("Message pinned", "other", "update", null),
  [A.MessageUnpin]: make("Message unpinned", "other", "update", null),
  [A.IntegrationCreate]: make("Integration added", "integration", "create", "integration"),
  [A.IntegrationUpdate]: make("Integration updated", "integration", "update", "integration"),
  [A.IntegrationDelete]: make("Integration removed", "integration", "delete", "integration"),
  [A.StageInstanceCreate]: make("Stage started", "other", "create", null),
  [A.StageInstanceUpdate]: make("Stage updated", "other", "update", null),
  [A.StageInstanceDelete]: make("Stage ended", "other", "delete", null),
  [A.StickerCreate]: make("Sticker added", "other", "create", null),
  [A.StickerUpdate]: make("Sticker updated", "other", "update", null),
  [A.StickerDelete]: make("Sticker deleted", "other", "delete", null),
  [A.GuildScheduledEventCreate]: make("Event scheduled", "event", "create", "event"),
  [A.GuildScheduledEventUpdate]: make("Event updated", "event", "update", "event"),
  [A.GuildScheduledEventDelete]: make("Event cancelled", "event", "delete", "event"),
  [A.ThreadCreate]: make("Thread created", "channel", "create", "channel"),
  [A.ThreadUpdate]: make("Thread updated", "channel", "update", "channel"),
  [A.ThreadDelete]: make("Thread deleted", "channel", "delete", "channel"),
  [A.ApplicationCommandPermissionUpdate]: make("Command permissions changed", "other", "update", null),
  [A.SoundboardSoundCreate]: make("Sound added", "other", "create", null),
  [A.SoundboardSoundUpdate]: make("Sound updated", "other", "update", null),
  [A.SoundboardSoundDelete]: make("Sound deleted", "other", "delete", null),
  [A.AutoModerationRuleCreate]: make("AutoMod rule created", "other", "create", null),
  [A.AutoModerationRuleUpdate]: make("AutoMod rule updated", "other", "update", null),
  [A.AutoModerationRuleDelete]: make("AutoMod rule deleted", "other", "delete", null),
  [A.AutoModerationBlockMessage]: make("AutoMod blocked a message", "other", "update", "user", "orange"),
  [A.AutoModerationFlagToChannel]: make("AutoMod flagged a message", "other", "update", "user", "orange"),
  [A.AutoModerationUserCommunicationDisabled]: make("AutoMod timed out a member", "other", "update", "user", "orange"),
  [A.AutoModerationQuarantineUser]: make("AutoMod quarantined a member", "other", "update", "user", "orange"),
  [A.CreatorMonetizationRequestCreated]: make("Monetization requested", "other", "create", null),
  [A.CreatorMonetizationTermsAccepted]: make("Monetization terms accepted", "other", "update", null),
  [A.OnboardingPromptCreate]: make("Onboarding question added", "prompt", "create", "prompt"),
  [A.OnboardingPromptUpdate]: make("Onboarding question changed", "prompt", "update", "prompt"),
  [A.OnboardingPromptDelete]: make("Onboarding question removed", "prompt", "delete", "prompt"),
  [A.OnboardingCreate]: make("Onboarding set up", "onboarding", "create", null),
  [A.OnboardingUpdate]: make("Onboarding changed", "onboarding", "update", null),
  [A.HomeSettingsCreate]: make("Guide set up", "other", "create", null),
  [A.HomeSettingsUpdate]: make("Guide changed", "other", "update", null),
  [A.VoiceChannelStatusCreate]: make("Voice status set", "channel", "update", "channel"),
  [A.VoiceChannelStatusDelete]: make("Voice status cleared", "channel", "update", "channel"),
};

const UNKNOWN: ActionInfo = make("Other change", "other", "update", null, "gray");

export function actionInfo(type: number): ActionInfo {
  return (ACTIONS as Partial<Record<number, ActionInfo>>)[type] ?? UNKNOWN;
}

/** The action filter's choices, by label. */
export const ACTION_OPTIONS: readonly { value: string; label: string }[] = Object.entries(ACTIONS)
  .map(([value, info]) => ({ value, label: info.label }))
  .sort((a, b) => a.label.localeCompare(b.label));
