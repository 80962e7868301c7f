import { Avatar, type AvatarProps } from "@mantine/core";

/** A guild's icon from the CDN, or its initials. */
export function GuildAvatar({ guild, ...props }: { guild: { id: string; name: string; icon: string | null } } & Omit<AvatarProps, "src" | "name">) {
  const src = guild.icon ? cdnImageUrl("icons", guild.id, guild.icon) : null;
  return <Avatar src={src} name={guild.name} color="initials" alt="" {...props} />;
}

/** The CDN address of a stored image; animated hashes (`a_…`) are GIFs. */
export function cdnImageUrl(kind: "icons" | "banners" | "splashes" | "discovery-splashes" | "avatars" | "app-icons", ownerId: string, hash: string): string {
  return `/cdn/${kind}/${ownerId}/${hash}.${hash.startsWith("a_") ? "gif" : "png"}`;
}
