// The rules of an application command definition that span fields or whole option lists
// (interactions.md 1.1, 1.2, 1.5, 1.7), as pure functions over parsed values: command.schema.ts
// turns their problems into 50035 field errors, and the dashboard can show the same ones.
import { ApplicationCommandOptionType as O, ChannelType, Locale, type ApplicationCommandOptionAllowedChannelType } from "discord-api-types/v10";

export const COMMAND_FIELD_LIMITS = {
  name: 32,
  description: 100,
  /** Options per level, and choices per option. */
  options: 25,
  choices: 25,
  choiceText: 100,
  stringLength: 6000,
  fileTypes: 10,
  /** Characters of every name, description and choice over one command's tree. */
  size: 8000,
} as const;

/** NUMBER options and choices: doubles within ±2^53. */
export const NUMBER_LIMIT = 2 ** 53;

/** What a CHANNEL option may ask for: every channel type but a hub's directory, as discord-api-types has it. */
export const OPTION_CHANNEL_TYPES = [
  ...new Set(
    Object.values(ChannelType).filter(
      (value): value is ApplicationCommandOptionAllowedChannelType => typeof value === "number" && value !== ChannelType.GuildDirectory,
    ),
  ),
];

export const COMMAND_ERRORS = {
  invalidName: { code: "APPLICATION_COMMAND_INVALID_NAME", message: "Command name is invalid" },
  requiredOrder: { code: "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", message: "Required options must be placed before non-required options" },
  duplicateCommand: { code: "APPLICATION_COMMANDS_DUPLICATE_NAME", message: "Application command names must be unique" },
  tooLarge: { code: "APPLICATION_COMMAND_TOO_LARGE", message: `Command exceeds maximum size (${COMMAND_FIELD_LIMITS.size})` },
  // code unverified, all below: no platform answer we have seen quotes these refusals, so the
  // codes follow the platform's naming and the messages say what is wrong.
  notForType: "APPLICATION_COMMAND_FIELD_NOT_ALLOWED",
  optionsType: "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
  duplicateOption: { code: "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME", message: "Option names must be unique" },
  autocompleteChoices: { code: "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID", message: "Autocomplete cannot be set on an option with choices" },
  range: "APPLICATION_COMMAND_OPTIONS_RANGE_INVALID",
  fileType: { code: "APPLICATION_COMMAND_OPTIONS_FILE_TYPE_INVALID", message: "File types are image, video, audio or a file extension such as .png" },
  locale: "ENUM_TYPE_COERCE",
} as const;

/** A rule's refusal, at its path below the value the rule was given. */
export type CommandProblem = { path: (string | number)[]; code: string; message: string };

/** The localized variants of one text, by locale. */
export type Localizations = Partial<Record<Locale, string>>;

const LOCALES: ReadonlySet<string> = new Set(Object.values(Locale));

/** Keys of a localization map that are not among the platform's locales. */
export function localeKeyProblems(map: Record<string, unknown>): CommandProblem[] {
  return Object.keys(map)
    .filter((key) => !LOCALES.has(key))
    .map((key) => ({ path: [key], code: COMMAND_ERRORS.locale, message: `Value "${key}" is not a valid enum value.` }));
}

const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;

/** CHAT_INPUT command names and every option name: the pattern, and lowercase wherever a letter has a lowercase form. */
export function isChatInputName(name: string): boolean {
  return CHAT_INPUT_NAME.test(name) && name === name.toLowerCase();
}

const FILE_TYPE = /^(image|video|audio|(\.[A-Za-z0-9]+)+)$/;

/** An ATTACHMENT option's accepted file type: a kind of media or a dot-extension. */
export function isFileType(value: string): boolean {
  return FILE_TYPE.test(value);
}

/** Where an options list sits: on the command, in a subcommand group, or in a subcommand. */
export type OptionLevel = "command" | "group" | "subcommand";

const BRANCH_TYPES: readonly number[] = [O.Subcommand, O.SubcommandGroup];
const VALUE_TYPES = [O.String, O.Integer, O.Boolean, O.User, O.Channel, O.Role, O.Mentionable, O.Number, O.Attachment] as const;
const RANGED_TYPES = [O.String, O.Integer, O.Number] as const;

/** The option fields that belong to some option types only, and what a misplaced one is told. */
const FIELD_OWNERS: Record<string, { types: readonly number[]; message: string }> = {
  required: { types: VALUE_TYPES, message: "Subcommands and subcommand groups cannot be required" },
  options: { types: BRANCH_TYPES, message: "Only subcommands and subcommand groups have options" },
  choices: { types: RANGED_TYPES, message: "Only string, integer and number options have choices" },
  autocomplete: { types: RANGED_TYPES, message: "Only string, integer and number options can autocomplete" },
  min_value: { types: [O.Integer, O.Number], message: "Only integer and number options have min_value" },
  max_value: { types: [O.Integer, O.Number], message: "Only integer and number options have max_value" },
  min_length: { types: [O.String], message: "Only string options have min_length" },
  max_length: { types: [O.String], message: "Only string options have max_length" },
  channel_types: { types: [O.Channel], message: "Only channel options have channel_types" },
  file_types: { types: [O.Attachment], message: "Only attachment options have file_types" },
};

/**
 * One option against its place: the types its level may hold (a group holds subcommands, a
 * subcommand holds value options, so nothing nests deeper) and the fields its type may carry.
 * `option` holds only the fields that say something (command.schema.ts drops null, false and empty ones).
 */
export function optionPlacementProblems(option: { type: number } & Record<string, unknown>, level: OptionLevel): CommandProblem[] {
  const problems: CommandProblem[] = [];
  if (level === "group" && option.type !== O.Subcommand) {
    problems.push({ path: ["type"], code: COMMAND_ERRORS.optionsType, message: "A subcommand group holds only subcommands" });
  }
  if (level === "subcommand" && BRANCH_TYPES.includes(option.type)) {
    problems.push({ path: ["type"], code: COMMAND_ERRORS.optionsType, message: "A subcommand holds no subcommands or subcommand groups" });
  }
  for (const [field, owner] of Object.entries(FIELD_OWNERS)) {
    if (Object.hasOwn(option, field) && !owner.types.includes(option.type)) {
      problems.push({ path: [field], code: COMMAND_ERRORS.notForType, message: owner.message });
    }
  }
  return problems;
}

type RangedOption = {
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
  choices?: readonly unknown[];
};

/** A value option's own cross-field rules: ranges that are not empty, and autocomplete without fixed choices. */
export function rangedOptionProblems(option: RangedOption): CommandProblem[] {
  const problems: CommandProblem[] = [];
  const reversed = (min: number | undefined, max: number | undefined) => min !== undefined && max !== undefined && min > max;
  if (reversed(option.min_value, option.max_value)) {
    problems.push({ path: ["max_value"], code: COMMAND_ERRORS.range, message: "max_value must be greater than or equal to min_value" });
  }
  if (reversed(option.min_length, option.max_length)) {
    problems.push({ path: ["max_length"], code: COMMAND_ERRORS.range, message: "max_length must be greater than or equal to min_length" });
  }
  if (option.autocomplete && option.choices?.length) problems.push({ path: ["autocomplete"], ...COMMAND_ERRORS.autocompleteChoices });
  return problems;
}

type ListedOption = { type: number; name: string; name_localizations?: Localizations; required?: boolean };

/**
 * The rules of one options list: on the command, subcommands and groups exclude value options;
 * required options come first; names are unique, in every locale too (a localized name may not
 * be another option's name, default or localized in that locale).
 */
export function optionListProblems(options: readonly ListedOption[], level: OptionLevel): CommandProblem[] {
  const problems: CommandProblem[] = [];
  const branches = options.filter((option) => BRANCH_TYPES.includes(option.type)).length;
  if (level === "command" && branches > 0 && branches < options.length) {
    problems.push({
      path: [],
      code: COMMAND_ERRORS.optionsType,
      message: "Sub-command and sub-command group option types are mutually exclusive to all other types",
    });
  }
  const firstOptional = options.findIndex((option) => !option.required);
  options.forEach((option, index) => {
    if (option.required && firstOptional !== -1 && index > firstOptional) problems.push({ path: [index], ...COMMAND_ERRORS.requiredOrder });
  });
  const defaults = options.map((option) => option.name);
  options.forEach((option, index) => {
    if (defaults.indexOf(option.name) < index) problems.push({ path: [index, "name"], ...COMMAND_ERRORS.duplicateOption });
  });
  const locales = new Set(options.flatMap((option) => Object.keys(option.name_localizations ?? {}) as Locale[]));
  for (const locale of locales) {
    const shown = options.map((option) => option.name_localizations?.[locale] ?? option.name);
    options.forEach((option, index) => {
      const name = option.name_localizations?.[locale];
      if (name === undefined) return;
      const clashes = shown.some((other, at) => (at < index && other === name) || (at !== index && defaults[at] === name));
      if (clashes) problems.push({ path: [index, "name_localizations", locale], ...COMMAND_ERRORS.duplicateOption });
    });
  }
  return problems;
}

type SizedText = {
  name: string;
  name_localizations?: Localizations | null;
  description?: string;
  description_localizations?: Localizations | null;
};
type SizedChoice = { name: string; name_localizations?: Localizations | null; value: string | number };
type SizedOption = SizedText & { options?: readonly SizedOption[]; choices?: readonly SizedChoice[] };
/** What a command's size is counted over: any command body or stored definition fits. */
export type SizedCommand = SizedText & { options?: readonly SizedOption[] };

/** Code points, as the platform counts characters. */
const charCount = (text: string) => [...text].length;

/** A field's size: its longest variant, default or localized. */
function longest(text: string | undefined, variants: Localizations | null | undefined): number {
  return Math.max(charCount(text ?? ""), ...Object.values(variants ?? {}).map(charCount));
}

function textSize(node: SizedText): number {
  return longest(node.name, node.name_localizations) + longest(node.description, node.description_localizations);
}

function optionSize(option: SizedOption): number {
  const choices = (option.choices ?? []).reduce((sum, choice) => sum + longest(choice.name, choice.name_localizations) + charCount(String(choice.value)), 0);
  return textSize(option) + choices + (option.options ?? []).reduce((sum, child) => sum + optionSize(child), 0);
}

/**
 * A command's size against the 8000-character limit (interactions.md 1.2): its name and
 * description, and every option's and choice's name, description and value, each field by its
 * longest localized variant.
 */
export function commandSize(command: SizedCommand): number {
  return optionSize(command);
}

/** A command over the size limit is refused as a whole, at its root. */
export function commandSizeProblems(command: SizedCommand): CommandProblem[] {
  return commandSize(command) > COMMAND_FIELD_LIMITS.size ? [{ path: [], ...COMMAND_ERRORS.tooLarge }] : [];
}

/** A bulk overwrite names each command once per type: the later of two alike is refused at its name. */
export function duplicateCommandProblems(commands: readonly { type: number; name: string }[]): CommandProblem[] {
  const seen = new Set<string>();
  const problems: CommandProblem[] = [];
  commands.forEach((command, index) => {
    const key = `${command.type}:${command.name}`;
    if (seen.has(key)) problems.push({ path: [index, "name"], ...COMMAND_ERRORS.duplicateCommand });
    seen.add(key);
  });
  return problems;
}
