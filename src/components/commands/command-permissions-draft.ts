// The permissions editor's unsaved list: pure changes to what one save replaces whole.
import { ApplicationCommandPermissionType as T } from "discord-api-types/v10";
import type { RouterOutputs } from "~/trpc/react.tsx";

/** One overwrite with what it names, as the server names it. */
export type DraftOverwrite = RouterOutputs["command"]["permissionsEditor"]["permissions"][number];

/** A list holds one overwrite per target, its type and id (the service keeps the last one given). */
export function keyOf(overwrite: Pick<DraftOverwrite, "id" | "type">): string {
  return `${overwrite.type}:${overwrite.id}`;
}

/** `draft` with `overwrite` added at the end, or put in place of the one for its target. */
export function withOverwrite(draft: readonly DraftOverwrite[], overwrite: DraftOverwrite): DraftOverwrite[] {
  const key = keyOf(overwrite);
  return draft.some((o) => keyOf(o) === key) ? draft.map((o) => (keyOf(o) === key ? overwrite : o)) : [...draft, overwrite];
}

export function withoutOverwrite(draft: readonly DraftOverwrite[], key: string): DraftOverwrite[] {
  return draft.filter((o) => keyOf(o) !== key);
}

/** The roles and members (who may use it) apart from the channels (where). */
export function splitDraft(draft: readonly DraftOverwrite[]): { people: DraftOverwrite[]; places: DraftOverwrite[] } {
  return { people: draft.filter((o) => o.type !== T.Channel), places: draft.filter((o) => o.type === T.Channel) };
}

/** The list a save sends: the order does not matter to the platform, the targets and their allow or deny do. */
export function toPermissionsBody(draft: readonly DraftOverwrite[]) {
  return draft.map(({ id, type, permission }) => ({ id, type, permission }));
}

export function isDirty(draft: readonly DraftOverwrite[], saved: readonly DraftOverwrite[]): boolean {
  const key = (list: readonly DraftOverwrite[]) => JSON.stringify(list.map((o) => `${keyOf(o)}:${o.permission}`).sort());
  return key(draft) !== key(saved);
}
