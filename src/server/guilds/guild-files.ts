import type { Tx } from "~/server/db/client.ts";
import { imageFolder, imagePath, memberImageFolder, type ImageKind } from "~/server/images/image.service.ts";
import { attachmentPathsOf } from "~/server/messages/attachments.ts";
import { webhookAvatarPaths } from "~/server/webhooks/webhook-removal.ts";

const GUILD_IMAGES = [
  ["icon", "icons"],
  ["splash", "splashes"],
  ["discoverySplash", "discovery-splashes"],
  ["banner", "banners"],
] as const satisfies readonly (readonly [string, ImageKind])[];

/**
 * Every stored file a guild holds, read in the change that deletes it (its rows then go by
 * cascade): its own images, its roles' icons, its emojis' images and stickers' files, its
 * members' guild avatars and banners, its webhooks' avatars and the files of every message in
 * its channels and threads.
 */
export async function guildFilePaths(tx: Tx, guildId: string): Promise<string[]> {
  const guild = await tx.guild.findUnique({ where: { id: guildId } });
  if (!guild) return [];
  const own = GUILD_IMAGES.flatMap(([column, kind]) => {
    const hash = guild[column];
    return hash ? [imagePath(imageFolder(kind, guildId), hash)] : [];
  });
  const roles = await tx.role.findMany({ where: { guildId, icon: { not: null } }, select: { id: true, icon: true } });
  const members = await tx.member.findMany({
    where: { guildId, OR: [{ avatar: { not: null } }, { banner: { not: null } }] },
    select: { userId: true, avatar: true, banner: true },
  });
  const webhooks = await tx.webhook.findMany({ where: { guildId }, select: { id: true } });
  const emojis = await tx.emoji.findMany({ where: { guildId }, select: { image: true } });
  const stickers = await tx.sticker.findMany({ where: { guildId }, select: { file: true } });
  return [
    ...own,
    ...roles.map((role) => imagePath(imageFolder("role-icons", role.id), role.icon!)),
    ...emojis.map((emoji) => emoji.image),
    ...stickers.map((sticker) => sticker.file),
    ...members.flatMap((member) => [
      ...(member.avatar ? [imagePath(memberImageFolder(guildId, member.userId, "avatars"), member.avatar)] : []),
      ...(member.banner ? [imagePath(memberImageFolder(guildId, member.userId, "banners"), member.banner)] : []),
    ]),
    ...(await webhookAvatarPaths(
      tx,
      webhooks.map((webhook) => webhook.id),
    )),
    ...(await attachmentPathsOf(tx, { guildId })),
  ];
}
