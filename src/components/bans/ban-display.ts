import type { RouterOutputs } from "~/trpc/react.tsx";

export type BanRow = RouterOutputs["member"]["bans"]["bans"][number];

export const bannedName = (ban: BanRow) => ban.user.global_name ?? ban.user.username;
