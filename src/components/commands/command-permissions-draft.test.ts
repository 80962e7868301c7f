import { describe, expect, it } from "vitest";
import { isDirty, keyOf, splitDraft, toPermissionsBody, withOverwrite, withoutOverwrite, type DraftOverwrite } from "./command-permissions-draft.ts";

const role = (id: string, permission = true): DraftOverwrite => ({ id, type: 1, permission, name: `role ${id}` });
const channel = (id: string, permission = true): DraftOverwrite => ({ id, type: 3, permission, name: `#${id}` });

describe("the command permissions draft", () => {
  it("holds one overwrite per target: adding one for a target replaces it, in place", () => {
    const draft = withOverwrite([role("1"), channel("1")], role("1", false));
    expect(draft).toEqual([role("1", false), channel("1")]);
    expect(withOverwrite(draft, role("2"))).toEqual([role("1", false), channel("1"), role("2")]);
    expect(withoutOverwrite(draft, keyOf(channel("1")))).toEqual([role("1", false)]);
  });

  it("splits who from where, and sends only what the platform reads", () => {
    expect(splitDraft([channel("5"), role("1")])).toEqual({ people: [role("1")], places: [channel("5")] });
    expect(toPermissionsBody([role("1", false)])).toEqual([{ id: "1", type: 1, permission: false }]);
  });

  it("is dirty when a target or its allow or deny changed, not when only the order did", () => {
    const saved = [role("1"), channel("2", false)];
    expect(isDirty([channel("2", false), role("1")], saved)).toBe(false);
    expect(isDirty([role("1", false), channel("2", false)], saved)).toBe(true);
    expect(isDirty([role("1")], saved)).toBe(true);
  });
});
