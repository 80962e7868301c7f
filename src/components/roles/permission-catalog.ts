import { ChannelType, PermissionFlagsBits } from "discord-api-types/v10";
import { flagLabel } from "~/server/permissions/permission-labels.ts";

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
    ],
  },
  { title: "Stage channels", names: ["RequestToSpeak"] },
  { title: "Apps", names: ["UseApplicationCommands", "UseEmbeddedActivities", "UseExternalApps"] },
  { title: "Events", names: ["CreateEvents", "ManageEvents"] },
  { title: "Advanced", names: ["Administrator", "ViewCreatorMonetizationAnalytics"] },
];

const DESCRIPTIONS: Partial<Record<FlagName, string>> = {
  Administrator: "Every permission, and bypasses channel overwrites. Grant with care.",
  ManageRoles: "Create, edit and delete roles below this member's highest role.",
  ManageGuild: "Change the guild's name, images and settings.",
  ViewAuditLog: "Read the record of changes made in the guild.",
  ModerateMembers: "Stop members from chatting, reacting and speaking for a while.",
};

function entry(name: FlagName): PermissionEntry {
  return { name, bit: PermissionFlagsBits[name], label: flagLabel(name), description: DESCRIPTIONS[name] };
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

/** The channel types whose overwrites a permission means something in (a category's is the union). */
type ChannelKind = "text" | "announcement" | "forum" | "voice" | "stage";

const KIND_OF: Partial<Record<number, ChannelKind>> = {
  [ChannelType.GuildText]: "text",
  [ChannelType.GuildAnnouncement]: "announcement",
  [ChannelType.GuildForum]: "forum",
  [ChannelType.GuildMedia]: "forum",
  [ChannelType.GuildVoice]: "voice",
  [ChannelType.GuildStageVoice]: "stage",
};

// Voice and stage channels have a text chat of their own, so message permissions apply there too.
const EVERY_KIND: readonly ChannelKind[] = ["text", "announcement", "forum", "voice", "stage"];
const THREADED: readonly ChannelKind[] = ["text", "announcement", "forum"];
const VOICE: readonly ChannelKind[] = ["voice"];
const VOICE_AND_STAGE: readonly ChannelKind[] = ["voice", "stage"];

/** Where each permission applies in a channel, with a one-line explanation there, as the platform's client shows them. */
const IN_CHANNELS: Partial<Record<FlagName, { kinds: readonly ChannelKind[]; description: string; label?: string }>> = {
  ViewChannel: { kinds: EVERY_KIND, label: "View channel", description: "See the channel and, in text channels, read its messages." },
  ManageChannels: { kinds: EVERY_KIND, label: "Manage channel", description: "Change the channel's name, topic and settings, or delete it." },
  ManageRoles: { kinds: EVERY_KIND, label: "Manage permissions", description: "Change this channel's permissions; only administrators may grant it." },
  ManageWebhooks: { kinds: EVERY_KIND, description: "Create, edit and delete the channel's webhooks." },
  CreateInstantInvite: { kinds: EVERY_KIND, description: "Invite people to the guild through this channel." },
  SendMessages: { kinds: EVERY_KIND, description: "Send messages here (in forums: create posts)." },
  SendMessagesInThreads: { kinds: THREADED, description: "Reply in threads and posts." },
  CreatePublicThreads: { kinds: THREADED, description: "Start threads everyone in the channel can see." },
  CreatePrivateThreads: { kinds: ["text"], description: "Start invite-only threads." },
  EmbedLinks: { kinds: EVERY_KIND, description: "Links they post show a preview." },
  AttachFiles: { kinds: EVERY_KIND, description: "Upload files and media." },
  AddReactions: { kinds: EVERY_KIND, description: "Add new reactions to messages." },
  UseExternalEmojis: { kinds: EVERY_KIND, description: "Use emojis from other guilds." },
  UseExternalStickers: { kinds: EVERY_KIND, description: "Use stickers from other guilds." },
  MentionEveryone: { kinds: EVERY_KIND, description: "Notify everyone in the channel, or a role, at once." },
  ManageMessages: { kinds: EVERY_KIND, description: "Delete other people's messages." },
  PinMessages: { kinds: EVERY_KIND, description: "Pin and unpin messages." },
  ManageThreads: { kinds: THREADED, description: "Rename, archive, lock and delete threads and posts." },
  ReadMessageHistory: { kinds: EVERY_KIND, description: "Read messages sent before they arrived." },
  SendTTSMessages: { kinds: EVERY_KIND, description: "Send messages read aloud to everyone viewing." },
  SendVoiceMessages: { kinds: EVERY_KIND, description: "Send recorded voice messages." },
  SendPolls: { kinds: EVERY_KIND, description: "Start polls." },
  BypassSlowmode: { kinds: EVERY_KIND, description: "Send messages without waiting for slowmode." },
  Connect: { kinds: VOICE_AND_STAGE, description: "Join the channel and hear others." },
  Speak: { kinds: VOICE, description: "Talk in the channel." },
  Stream: { kinds: VOICE_AND_STAGE, description: "Share their camera or screen." },
  UseSoundboard: { kinds: VOICE, description: "Play sounds from the soundboard." },
  UseExternalSounds: { kinds: VOICE, description: "Play soundboard sounds from other guilds." },
  UseVAD: { kinds: VOICE, description: "Talk without push-to-talk." },
  PrioritySpeaker: { kinds: VOICE, description: "Be heard more easily: others are quieter while they talk." },
  MuteMembers: { kinds: VOICE_AND_STAGE, description: "Mute others for everyone." },
  DeafenMembers: { kinds: VOICE, description: "Stop others from hearing the channel." },
  MoveMembers: { kinds: VOICE_AND_STAGE, description: "Move or disconnect others." },
  SetVoiceChannelStatus: { kinds: VOICE, description: "Set the status shown under the channel." },
  RequestToSpeak: { kinds: ["stage"], description: "Ask to speak on stage." },
  UseApplicationCommands: { kinds: EVERY_KIND, description: "Use apps' commands." },
  UseEmbeddedActivities: { kinds: ["text", "voice"], description: "Start and join activities." },
  UseExternalApps: { kinds: EVERY_KIND, description: "Use apps not added to the guild; their replies are public." },
  CreateEvents: { kinds: VOICE_AND_STAGE, description: "Schedule events in this channel." },
  ManageEvents: { kinds: VOICE_AND_STAGE, description: "Edit and cancel events in this channel." },
};

/**
 * The permissions a channel of `type` can allow or deny, grouped as on the Roles page and
 * explained for a channel; a category offers every permission any of its channels can.
 */
export function channelPermissionGroups(type: number): PermissionGroup[] {
  const kind = KIND_OF[type];
  const applies = (name: FlagName) => {
    const entry = IN_CHANNELS[name];
    return entry !== undefined && (type === ChannelType.GuildCategory || (kind !== undefined && entry.kinds.includes(kind)));
  };
  return PERMISSION_GROUPS.map((group) => ({
    title: group.title,
    permissions: group.permissions
      .filter((permission) => applies(permission.name))
      .map((permission) => {
        const entry = IN_CHANNELS[permission.name]!;
        return { ...permission, label: entry.label ?? permission.label, description: entry.description };
      }),
  })).filter((group) => group.permissions.length > 0);
}

/** "Manage guild", for "Needs …" explanations. */
export function permissionLabel(bit: bigint): string {
  for (const group of PERMISSION_GROUPS) {
    const found = group.permissions.find((p) => p.bit === bit);
    if (found) return found.label;
  }
  return "a permission";
}
