// What people call each permission, in the dashboard and in the reasons it shows for a refusal.
import { PermissionFlagsBits } from "discord-api-types/v10";

type FlagName = keyof typeof PermissionFlagsBits;

// Where the flag's own words would read oddly, the platform client's wording.
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

/** "ManageMessages" → "Manage messages". */
function words(name: string): string {
  const text = name
    .split(/(?=[A-Z])/)
    .map((word) => word.toLowerCase())
    .join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A flag's label, e.g. "Time out members" for ModerateMembers. */
export function flagLabel(name: FlagName): string {
  return LABELS[name] ?? words(name);
}

const BY_BIT = new Map<bigint, string>();
for (const name of Object.keys(PermissionFlagsBits) as FlagName[]) {
  // A deprecated alias shares its bit with its replacement, which the typings list after it.
  BY_BIT.set(PermissionFlagsBits[name], flagLabel(name));
}

/** A permission bit's label; a bit the platform does not define reads as its number. */
export function permissionLabel(bit: bigint): string {
  return BY_BIT.get(bit) ?? bit.toString();
}
