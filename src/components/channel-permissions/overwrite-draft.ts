// The editor's unsaved overwrites: pure changes to a list the page saves in one PATCH.
import { PermissionFlagsBits } from "discord-api-types/v10";

/** One overwrite being edited; `name` and `color` are for showing the target. */
export type DraftOverwrite = { id: string; type: 0 | 1; name: string; color: number; allow: bigint; deny: bigint };

/** Allow, neutral (the roles decide) or deny, as the platform's client offers each permission. */
export type OverwriteState = "allow" | "neutral" | "deny";

const VIEW = PermissionFlagsBits.ViewChannel;

export function stateOf(overwrite: Pick<DraftOverwrite, "allow" | "deny">, bit: bigint): OverwriteState {
  if ((overwrite.allow & bit) !== 0n) return "allow";
  return (overwrite.deny & bit) !== 0n ? "deny" : "neutral";
}

export function withState(overwrite: DraftOverwrite, bit: bigint, state: OverwriteState): DraftOverwrite {
  return {
    ...overwrite,
    allow: state === "allow" ? overwrite.allow | bit : overwrite.allow & ~bit,
    deny: state === "deny" ? overwrite.deny | bit : overwrite.deny & ~bit,
  };
}

/** `draft` with the target's overwrite changed by `change`, added (empty) first when it has none. */
export function updateTarget(
  draft: readonly DraftOverwrite[],
  target: Omit<DraftOverwrite, "allow" | "deny">,
  change: (overwrite: DraftOverwrite) => DraftOverwrite,
): DraftOverwrite[] {
  const found = draft.some((o) => o.id === target.id);
  const list = found ? draft : [...draft, { ...target, allow: 0n, deny: 0n }];
  return list.map((o) => (o.id === target.id ? change(o) : o));
}

/** A private channel: @everyone (whose role id is the guild's) is denied viewing it. */
export function isPrivate(draft: readonly DraftOverwrite[], everyoneId: string): boolean {
  return draft.some((o) => o.id === everyoneId && stateOf(o, VIEW) === "deny");
}

/** Makes the channel private or public by denying @everyone VIEW_CHANNEL, or leaving it to the roles. */
export function setPrivate(draft: readonly DraftOverwrite[], everyone: Omit<DraftOverwrite, "allow" | "deny">, on: boolean): DraftOverwrite[] {
  return updateTarget(draft, everyone, (o) => withState(o, VIEW, on ? "deny" : "neutral"));
}

/** The roles and members allowed to view the channel by an overwrite. */
export function viewerIds(draft: readonly DraftOverwrite[]): string[] {
  return draft.filter((o) => stateOf(o, VIEW) === "allow").map((o) => o.id);
}

/** Lets a role or member view the channel, or takes that allow away (back to neutral). */
export function setViewer(draft: readonly DraftOverwrite[], target: Omit<DraftOverwrite, "allow" | "deny">, on: boolean): DraftOverwrite[] {
  return updateTarget(draft, target, (o) => withState(o, VIEW, on ? "allow" : "neutral"));
}

/**
 * The PATCH body's overwrites: an empty overwrite the channel did not have (@everyone is
 * always listed in the editor) is left out; one it had stays, as on the platform.
 */
export function toOverwriteBody(draft: readonly DraftOverwrite[], savedIds: ReadonlySet<string>) {
  return draft
    .filter((o) => o.allow !== 0n || o.deny !== 0n || savedIds.has(o.id))
    .map((o) => ({ id: o.id, type: o.type, allow: o.allow.toString(), deny: o.deny.toString() }));
}

/** Whether saving `draft` would change the saved overwrites. */
export function isDirty(draft: readonly DraftOverwrite[], saved: readonly DraftOverwrite[]): boolean {
  const ids = new Set(saved.map((o) => o.id));
  const key = (list: readonly DraftOverwrite[]) => JSON.stringify(toOverwriteBody(list, ids).sort((a, b) => a.id.localeCompare(b.id)));
  return key(draft) !== key(saved);
}
