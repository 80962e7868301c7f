import { Avatar, type AvatarProps } from "@mantine/core";
import { cdnImageUrl } from "~/components/guild/guild-avatar.tsx";

/** An application's icon from the CDN (`/cdn/app-icons/…`), or its initials. */
export function ApplicationAvatar({
  application,
  ...props
}: { application: { id: string; name: string; icon: string | null } } & Omit<AvatarProps, "src" | "name">) {
  const src = application.icon ? cdnImageUrl("app-icons", application.id, application.icon) : null;
  return <Avatar src={src} name={application.name} color="initials" alt="" {...props} />;
}
