import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { isDirty, isPrivate, setPrivate, setViewer, stateOf, toOverwriteBody, viewerIds, withState, type DraftOverwrite } from "./overwrite-draft.ts";

const everyone = { id: "10", type: 0 as const, name: "@everyone", color: 0 };
const mods = { id: "20", type: 0 as const, name: "Mods", color: 0 };

describe("overwrite drafts", () => {
  it("cycles one permission through allow, neutral and deny without touching the others", () => {
    const start: DraftOverwrite = { ...mods, allow: P.SendMessages, deny: 0n };
    const denied = withState(start, P.ViewChannel, "deny");
    expect(stateOf(denied, P.ViewChannel)).toBe("deny");
    expect(stateOf(denied, P.SendMessages)).toBe("allow");
    const allowed = withState(denied, P.ViewChannel, "allow");
    expect(allowed).toMatchObject({ allow: P.SendMessages | P.ViewChannel, deny: 0n });
    expect(stateOf(withState(allowed, P.ViewChannel, "neutral"), P.ViewChannel)).toBe("neutral");
  });

  it("makes a channel private for a role: @everyone denied viewing, the role allowed", () => {
    const draft = setViewer(setPrivate([{ ...everyone, allow: 0n, deny: 0n }], everyone, true), mods, true);
    expect(isPrivate(draft, everyone.id)).toBe(true);
    expect(viewerIds(draft)).toEqual([mods.id]);
    expect(toOverwriteBody(draft, new Set())).toEqual([
      { id: everyone.id, type: 0, allow: "0", deny: String(P.ViewChannel) },
      { id: mods.id, type: 0, allow: String(P.ViewChannel), deny: "0" },
    ]);
  });

  it("leaves out an empty @everyone overwrite the channel never had, so turning private off again changes nothing", () => {
    const saved = [{ ...everyone, allow: 0n, deny: 0n }];
    const draft = setPrivate(setPrivate(saved, everyone, true), everyone, false);
    expect(toOverwriteBody(draft, new Set())).toEqual([]);
    expect(isDirty(draft, saved)).toBe(false);
    expect(isDirty(setPrivate(saved, everyone, true), saved)).toBe(true);
  });
});
