// The emoji a reaction route names in its path: a unicode emoji as it is, or a custom emoji
// as `name:id` (URL-encoded by the caller, decoded by the dispatcher). Pure.

/** One emoji as the platform writes it: a fully-qualified emoji sequence, or one pictograph. */
const UNICODE_EMOJI = new RegExp(String.raw`^(?:\p{RGI_Emoji}|\p{Extended_Pictographic}\uFE0F?)$`, "v");
const CUSTOM_EMOJI = /^(?<name>\w{1,32}):(?<id>\d{17,20})$/;

export type ReactionEmoji = { kind: "unicode"; name: string } | { kind: "custom"; id: string; name: string };

/** The path's emoji, or null when it is neither (the platform answers 10014 Unknown Emoji). */
export function parseReactionEmoji(param: string): ReactionEmoji | null {
  const custom = CUSTOM_EMOJI.exec(param);
  if (custom) return { kind: "custom", id: custom.groups!.id!, name: custom.groups!.name! };
  return UNICODE_EMOJI.test(param) ? { kind: "unicode", name: param } : null;
}

/** The key a reaction is stored under: a custom emoji by its id (its name may change), a unicode one by itself. */
export function reactionKey(emoji: ReactionEmoji): string {
  return emoji.kind === "custom" ? emoji.id : emoji.name;
}
