import type { RouterOutputs } from "~/trpc/react.tsx";

export type InviteRow = RouterOutputs["invite"]["list"][number];

/** "Expire after" choices in seconds, as the platform's client offers them; 0 never expires. */
export const EXPIRE_AFTER_OPTIONS = [
  { value: "1800", label: "30 minutes" },
  { value: "3600", label: "1 hour" },
  { value: "21600", label: "6 hours" },
  { value: "43200", label: "12 hours" },
  { value: "86400", label: "1 day" },
  { value: "604800", label: "7 days" },
  { value: "0", label: "Never" },
];

/** "Max uses" choices; 0 is no limit. */
export const MAX_USES_OPTIONS = [
  { value: "0", label: "No limit" },
  ...[1, 5, 10, 25, 50, 100].map((uses) => ({ value: String(uses), label: `${uses} ${uses === 1 ? "use" : "uses"}` })),
];

/** "3 / 10", "3 / ∞"; members without Manage Guild don't see uses. */
export function formatUses(invite: InviteRow): string {
  if (invite.uses === undefined) return "—";
  return `${invite.uses} / ${invite.max_uses === 0 ? "∞" : String(invite.max_uses)}`;
}
