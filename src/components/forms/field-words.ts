import type { FieldError } from "~/server/errors.ts";

// The platform's field errors (50035) are written for developers: "Value is not snowflake.",
// "Must be between 1 and 50 in length.". The dashboard says the same in words about what the
// person filled in, using the field's path for what it is and where it sits.

/** What a field is called in a sentence, where its key alone doesn't say. Id lists name one item. */
const FIELD_WORDS: Record<string, string> = {
  nick: "nickname",
  channel_id: "channel",
  channel_ids: "channel",
  role_ids: "role",
  default_channel_ids: "default channel",
  parent_id: "category",
  afk_channel_id: "inactive channel",
  system_channel_id: "system messages channel",
  rules_channel_id: "rules channel",
  public_updates_channel_id: "community updates channel",
  safety_alerts_channel_id: "safety alerts channel",
  emoji_name: "emoji",
  emoji_id: "emoji",
  splash: "invite splash",
  rate_limit_per_user: "slowmode",
  afk_timeout: "inactive timeout",
  communication_disabled_until: "timeout",
  content: "message",
  key: "key",
};

/** What one item of a list is called: `prompts.0.options.1.title` is a title of an answer of a question. */
const ITEM_WORDS: Record<string, string> = {
  prompts: "question",
  options: "answer",
  welcome_channels: "row",
  pairs: "entry",
  permission_overwrites: "override",
  colors: "color",
};

const isIndex = (segment: string) => /^\d+$/.test(segment);

function words(key: string): string {
  return FIELD_WORDS[key] ?? key.replace(/_ids?$/, "").replaceAll("_", " ");
}

function plural(word: string): string {
  return word.endsWith("y") ? `${word.slice(0, -1)}ies` : `${word}s`;
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lengthOf(value: unknown): number | null {
  if (typeof value === "string") return [...value.trim()].length;
  return Array.isArray(value) ? value.length : null;
}

/** The bounds a platform message names: "between 1 and 50", "2 or more", "less than or equal to 9". */
function boundsOf(message: string): { min?: number; max?: number } {
  const between = /between (\d+) and (\d+)/.exec(message);
  if (between) return { min: Number(between[1]), max: Number(between[2]) };
  const min = /(\d+) or more|greater than or equal to (\d+)/.exec(message);
  if (min) return { min: Number(min[1] ?? min[2]) };
  const max = /(\d+) or fewer|less than or equal to (\d+)/.exec(message);
  return max ? { max: Number(max[1] ?? max[2]) } : {};
}

/**
 * A sentence for one field error. `path` is the field's path in the body (list indexes
 * included), `value` what the form sent there when known: "" reads as missing, not as short.
 */
export function fieldSentence(path: readonly string[], error: FieldError, value?: unknown): string {
  // The field the sentence is about: an id list's element is "a role", the list itself "roles".
  const last = path.length - 1;
  const element = last > 0 && isIndex(path[last]!);
  const key = element ? path[last - 1]! : (path[last] ?? "");
  const keyAt = element ? last - 1 : last;
  let itemAt = -1;
  for (let i = keyAt - 1; i > 0; i--) {
    if (isIndex(path[i]!)) {
      itemAt = i;
      break;
    }
  }
  const item = itemAt > 0 ? (ITEM_WORDS[path[itemAt - 1]!] ?? "item") : null;
  const label = words(key);
  const list = !element && (Array.isArray(value) || key in ITEM_WORDS || key.endsWith("_ids"));
  const each = (sentence: string) => (item ? `${sentence} for each ${item}.` : `${sentence}.`);
  const length = lengthOf(value);
  const { min, max } = boundsOf(error.message);

  const isId = key.endsWith("_id") || key.endsWith("_ids");
  if (isId && (value === "" || /snowflake/i.test(error.message) || error.code === "NUMBER_TYPE_COERCE")) return each(`Choose ${article(label)}`);

  switch (error.code) {
    case "BASE_TYPE_REQUIRED":
      return item ? `Each ${item} needs ${article(label)}.` : `${capital(label)} is required.`;
    case "BASE_TYPE_BAD_LENGTH":
    case "BASE_TYPE_MIN_LENGTH":
    case "BASE_TYPE_MAX_LENGTH": {
      const one = list ? (ITEM_WORDS[key] ?? label) : "character";
      const unit = list ? plural(one) : "characters";
      if (length === 0 && min !== undefined && min > 0) {
        if (list) return `${item ? `Each ${item}` : capital(label)} needs at least ${min === 1 ? `one ${one}` : `${min} ${unit}`}.`;
        return item ? `Each ${item} needs ${article(label)}.` : `${capital(label)} is required.`;
      }
      if (list && max !== undefined && (length === null || length > max)) return `Choose at most ${max} ${unit}.`;
      if (list && min !== undefined) return `Choose at least ${min} ${unit}.`;
      if (length !== null && min !== undefined && length < min) return `${capital(label)} needs at least ${min} ${unit}.`;
      if (length !== null && max !== undefined && length > max) return `${capital(label)} can have at most ${max} ${unit}.`;
      if (min !== undefined && max !== undefined && min > 0) return `${capital(label)} needs ${min} to ${max} ${unit}.`;
      if (max !== undefined) return `${capital(label)} can have at most ${max} ${unit}.`;
      if (min !== undefined) return `${capital(label)} needs at least ${min} ${unit}.`;
      return error.message;
    }
    case "NUMBER_TYPE_MIN":
      return `${capital(label)} must be at least ${min}.`;
    case "NUMBER_TYPE_MAX":
      return `${capital(label)} must be at most ${max}.`;
    case "BASE_TYPE_CHOICES":
      return `Choose one of the listed options for the ${label}.`;
    case "BASE_TYPE_DUPLICATE":
      return `Each ${label} can be chosen only once.`;
    // The one pattern a field is held to: an emoji's name.
    case "STRING_TYPE_REGEX":
      return `${capital(label)} can have only letters, numbers and underscores.`;
    default:
      return error.message;
  }
}
