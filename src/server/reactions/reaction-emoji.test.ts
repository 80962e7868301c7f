import { describe, expect, it } from "vitest";
import { parseReactionEmoji, reactionKey } from "./reaction-emoji.ts";

describe("the emoji a reaction path names", () => {
  it("takes unicode emojis, sequences included", () => {
    for (const emoji of ["👍", "❤️", "❤", "🏳️‍🌈", "👩🏽‍💻", "1️⃣", "🇫🇷"]) expect(parseReactionEmoji(emoji), emoji).toEqual({ kind: "unicode", name: emoji });
  });

  it("takes a custom emoji as name:id, keyed by its id", () => {
    const emoji = parseReactionEmoji("party_parrot:123456789012345678");
    expect(emoji).toEqual({ kind: "custom", id: "123456789012345678", name: "party_parrot" });
    expect(reactionKey(emoji!)).toBe("123456789012345678");
  });

  it("refuses what is no emoji", () => {
    for (const param of ["", "a", "thumbsup", ":thumbsup:", "👍👍", "👍a", "name:12", "name:abc", ":123456789012345678", "<:a:123456789012345678>"])
      expect(parseReactionEmoji(param), param).toBeNull();
  });
});
