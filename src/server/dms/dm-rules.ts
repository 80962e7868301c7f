// Who may message whom directly, and what a recipient may do in a DM: pure, so the service
// enforces it and the dashboard shows the same reason.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Denial } from "~/server/permissions/denial.ts";

/** A guild both users are members of, as the recipient's DM setting and the guild's incident actions leave it. */
type SharedGuild = { recipientAllowsDms: boolean; dmsPausedUntil: Date | null };

export type DmParties = {
  sender: { id: string; bot: boolean };
  recipient: { id: string; bot: boolean };
  sharedGuilds: readonly SharedGuild[];
};

/**
 * 50007 where the platform refuses a direct message: to oneself, between two bots, and to a
 * user who shares no guild with the sender whose members they accept DMs from (a person's
 * per-guild setting; bots accept all) while that guild has not paused DMs.
 */
export function dmDenial({ sender, recipient, sharedGuilds }: DmParties, now: Date): Denial | null {
  const refuse = (reason: string): Denial => ({ error: "CANNOT_MESSAGE_USER", reason });
  if (sender.id === recipient.id) return refuse("You cannot message yourself.");
  if (sender.bot && recipient.bot) return refuse("Bots cannot message other bots.");
  const open = sharedGuilds.some((guild) => (recipient.bot || guild.recipientAllowsDms) && !(guild.dmsPausedUntil && guild.dmsPausedUntil > now));
  if (!open) return refuse("This user shares no server with you whose members they accept direct messages from.");
  return null;
}

/**
 * What each recipient holds in a DM, the platform's implicit set: read, write, react, attach,
 * embed, pin; never manage others' messages or mention everyone.
 */
export const DM_PERMISSIONS =
  P.ViewChannel |
  P.SendMessages |
  P.ReadMessageHistory |
  P.AddReactions |
  P.EmbedLinks |
  P.AttachFiles |
  P.UseExternalEmojis |
  P.UseExternalStickers |
  P.SendTTSMessages |
  P.SendVoiceMessages |
  P.SendPolls |
  P.PinMessages;
