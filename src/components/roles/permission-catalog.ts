import { PermissionFlagsBits } from "discord-api-types/v10";
import { humanize } from "~/components/format.ts";

type FlagName = keyof typeof PermissionFlagsBits;

type PermissionEntry = { name: FlagName; bit: bigint; label: string; description?: string };
export type PermissionGroup = { title: string; permissions: PermissionEntry[] };

// Grouped as moderators know them from the platform's own client.
const GROUPS: readonly { title: string; names: readonly FlagName[] }[] = [
  {
    title: "General",
    names: [
      "ViewChannel",
      "ManageChannels",
      "ManageRoles",
      "CreateGuildExpressions",
      "ManageGuildExpressions",
      "ViewAuditLog",
      "ViewGuildInsights",
      "ManageWebhooks",
      "ManageGuild",
    ],
  },
  { title: "Membership", names: ["CreateInstantInvite", "ChangeNickname", "ManageNicknames", "KickMembers", "BanMembers", "ModerateMembers"] },
  {
    title: "Text channels",
    names: [
      "SendMessages",
      "SendMessagesInThreads",
      "CreatePublicThreads",
      "CreatePrivateThreads",
      "EmbedLinks",
      "AttachFiles",
      "AddReactions",
      "UseExternalEmojis",
      "UseExternalStickers",
      "MentionEveryone",
      "ManageMessages",
      "PinMessages",
      "ManageThreads",
      "ReadMessageHistory",
      "SendTTSMessages",
      "SendVoiceMessages",
      "SendPolls",
      "BypassSlowmode",
    ],
  },
  {
    title: "Voice channels",
    names: [
      "Connect",
      "Speak",
      "Stream",
      "UseSoundboard",
      "UseExternalSounds",
      "UseVAD",
      "PrioritySpeaker",
      "MuteMembers",
      "DeafenMembers",
      "MoveMembers",
      "SetVoiceChannelStatus",
      "RequestToSpeak",
    ],
  },
  { title: "Apps", names: ["UseApplicationCommands", "UseEmbeddedActivities", "UseExternalApps"] },
  { title: "Events", names: ["CreateEvents", "ManageEvents"] },
  { title: "Advanced", names: ["Administrator", "ViewCreatorMonetizationAnalytics"] },
];

const LABELS: Partial<Record<FlagName, string>> = {
  ViewChannel: "View channels",
  ManageGuild: "Manage guild",
  CreateGuildExpressions: "Create expressions",
  ManageGuildExpressions: "Manage expressions",
  ViewGuildInsights: "View guild insights",
  CreateInstantInvite: "Create invites",
  KickMembers: "Kick members",
  ModerateMembers: "Time out members",
  MentionEveryone: "Mention @everyone, @here and all roles",
  SendTTSMessages: "Send text-to-speech messages",
  Stream: "Video",
  UseVAD: "Use voice activity",
  UseApplicationCommands: "Use application commands",
  UseEmbeddedActivities: "Use activities",
  ViewCreatorMonetizationAnalytics: "View monetization analytics",
};

const DESCRIPTIONS: Partial<Record<FlagName, string>> = {
  Administrator: "Every permission, and bypasses channel overwrites. Grant with care.",
  ManageRoles: "Create, edit and delete roles below this member's highest role.",
  ManageGuild: "Change the guild's name, images and settings.",
  ViewAuditLog: "Read the record of changes made in the guild.",
  ModerateMembers: "Stop members from chatting, reacting and speaking for a while.",
};

function entry(name: FlagName): PermissionEntry {
  return { name, bit: PermissionFlagsBits[name], label: LABELS[name] ?? humanize(name), description: DESCRIPTIONS[name] };
}

/** Every permission bit once, in groups; bits no group names yet land in "Other". */
export const PERMISSION_GROUPS: readonly PermissionGroup[] = (() => {
  const groups = GROUPS.map((group) => ({ title: group.title, permissions: group.names.map(entry) }));
  const listed = new Set(groups.flatMap((g) => g.permissions.map((p) => p.bit)));
  const others: PermissionEntry[] = [];
  for (const name of Object.keys(PermissionFlagsBits) as FlagName[]) {
    // Deprecated aliases share a bit with their replacement.
    if (listed.has(PermissionFlagsBits[name])) continue;
    listed.add(PermissionFlagsBits[name]);
    others.push(entry(name));
  }
  return others.length ? [...groups, { title: "Other", permissions: others }] : groups;
})();

/** "Manage guild", for "Needs …" explanations. */
export function permissionLabel(bit: bigint): string {
  for (const group of PERMISSION_GROUPS) {
    const found = group.permissions.find((p) => p.bit === bit);
    if (found) return found.label;
  }
  return "a permission";
}
