import type { APIUser } from "discord-api-types/v10";
import type { User } from "~/generated/prisma/client.ts";

/** The public user object. */
export function toUserObject(user: Pick<User, "id" | "username" | "globalName" | "avatar" | "bot" | "system" | "flags">) {
  return {
    id: user.id,
    username: user.username,
    discriminator: "0",
    global_name: user.globalName,
    avatar: user.avatar,
    ...(user.bot ? { bot: true } : {}),
    ...(user.system ? { system: true } : {}),
    public_flags: user.flags,
    flags: user.flags,
    banner: null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  } satisfies APIUser;
}

export type UserObject = ReturnType<typeof toUserObject>;
