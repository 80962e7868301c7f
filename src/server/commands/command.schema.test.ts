import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { ApiError, fromZodError } from "~/server/errors.ts";
import { commandSize, type Localizations, type SizedCommand } from "./command-validation.ts";
import {
  mergeCommandEdit,
  parseCommandBody,
  ZGlobalCommandBodySchema,
  ZGlobalCommandBulkBodySchema,
  ZGlobalCommandEditBodySchema,
  ZGuildCommandBodySchema,
  ZGuildCommandBulkBodySchema,
  ZGuildCommandEditBodySchema,
} from "./command.schema.ts";

/** The 50035 error tree `schema` answers `body` with (undefined when the body is accepted). */
function errorsOf(schema: z.ZodType, body: unknown): unknown {
  const result = schema.safeParse(body);
  return result.success ? undefined : fromZodError(result.error, body).toBody().errors;
}

/** A one-leaf error tree: `path` (dots between keys) down to a single error of `code`. */
function leaf(path: string, code: string): unknown {
  return path
    .split(".")
    .filter(Boolean)
    .reduceRight<unknown>((tree, key) => ({ [key]: tree }), { _errors: [expect.objectContaining({ code })] });
}

const chat = (fields: Record<string, unknown> = {}) => ({ name: "ban", description: "Ban a member", ...fields });
const withOptions = (...options: Record<string, unknown>[]) => chat({ options });
const str = (name: string, fields: Record<string, unknown> = {}) => ({ type: 3, name, description: "text", ...fields });
const sub = (name: string, options: unknown[] = []) => ({ type: 1, name, description: "a subcommand", options });
const group = (name: string, options: unknown[]) => ({ type: 2, name, description: "a group", options });
const global = (body: unknown) => errorsOf(ZGlobalCommandBodySchema, body);

/**
 * A command of exactly 8000 characters: 1 + 99 of its own, 25 options of 1 + 99, and 54
 * choices of 99 + 1 (six on the first option, two on each other).
 */
const LARGEST = {
  name: "b",
  description: "d".repeat(99),
  options: Array.from({ length: 25 }, (_, i) => ({
    type: 3,
    name: String.fromCharCode(97 + i),
    description: "d".repeat(99),
    choices: Array.from({ length: i === 0 ? 6 : 2 }, (_, j) => ({ name: "n".repeat(99), value: String(j) })),
  })),
};

describe("a command body's normalized definition", () => {
  it("fills what a discord.js slash command leaves out, and drops what says nothing", () => {
    // ApplicationCommandManager.transformCommand's wire form of a SlashCommandBuilder.
    const body = {
      name: "ban",
      name_localizations: { de: "bannen", "es-ES": "banear" },
      description: "Ban a member",
      description_localizations: { de: "Ein Mitglied bannen" },
      type: 1,
      options: [
        { type: 6, name: "user", description: "Who", required: true },
        { type: 3, name: "reason", description: "Why", required: false },
      ],
      default_member_permissions: "4",
      contexts: [0],
    };
    expect(ZGlobalCommandBodySchema.parse(body)).toEqual({
      type: 1,
      name: "ban",
      name_localizations: { de: "bannen", "es-ES": "banear" },
      description: "Ban a member",
      description_localizations: { de: "Ein Mitglied bannen" },
      options: [
        { type: 6, name: "user", description: "Who", required: true },
        { type: 3, name: "reason", description: "Why" },
      ],
      default_member_permissions: "4",
      default_permission: true,
      nsfw: false,
      dm_permission: true,
      contexts: [0],
    });
  });

  it("answers a USER command with an empty description, no options and no localizations", () => {
    const parsed = ZGlobalCommandBodySchema.parse({ type: 2, name: "Report User", description: "", options: [], description_localizations: null });
    expect(parsed).toEqual({
      type: 2,
      name: "Report User",
      name_localizations: null,
      description: "",
      description_localizations: null,
      options: [],
      default_member_permissions: null,
      default_permission: true,
      nsfw: false,
      dm_permission: true,
      contexts: null,
    });
    // Not given: the service fills the application's own installation types.
    expect(parsed).not.toHaveProperty("integration_types", expect.anything());
  });

  it("stores default_member_permissions as a decimal string, from a string or a safe integer", () => {
    expect(ZGlobalCommandBodySchema.parse(chat({ default_member_permissions: 8 })).default_member_permissions).toBe("8");
    expect(ZGlobalCommandBodySchema.parse(chat({ default_member_permissions: "281474976710656" })).default_member_permissions).toBe("281474976710656");
    expect(ZGlobalCommandBodySchema.parse(chat({ default_member_permissions: null })).default_member_permissions).toBeNull();
    for (const bad of [-1, 1.5, 2 ** 53, "0x10", "-1"]) {
      expect(global(chat({ default_member_permissions: bad }))).toEqual(leaf("default_member_permissions", "BASE_TYPE_INVALID"));
    }
  });

  it("holds integration_types, contexts and an entry point's handler to their values", () => {
    expect(global(chat({ integration_types: [0, 1], contexts: [0, 1, 2] }))).toBeUndefined();
    expect(global(chat({ integration_types: [2] }))).toEqual(leaf("integration_types.0", "BASE_TYPE_CHOICES"));
    expect(global(chat({ contexts: [0, 3] }))).toEqual(leaf("contexts.1", "BASE_TYPE_CHOICES"));
    expect(ZGlobalCommandBodySchema.parse({ type: 4, name: "launch" })).toMatchObject({ type: 4, description: "", handler: 1, options: [] });
    expect(ZGlobalCommandBodySchema.parse({ type: 4, name: "launch", handler: 2 })).toMatchObject({ handler: 2 });
    expect(global({ type: 4, name: "launch", handler: 3 })).toEqual(leaf("handler", "BASE_TYPE_CHOICES"));
    expect(global(chat({ handler: 1 }))).toEqual(leaf("handler", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
    expect(global({ type: 5, name: "x" })).toEqual(leaf("type", "BASE_TYPE_CHOICES"));
  });

  it("refuses a body that is not an object", () => {
    expect(global([chat()])).toEqual({ _errors: [expect.objectContaining({ code: "DICT_TYPE_CONVERT" })] });
  });
});

describe("names and descriptions", () => {
  it("holds CHAT_INPUT names to 1-32 lowercase characters of the pattern", () => {
    expect(global(chat({ name: "a".repeat(32) }))).toBeUndefined();
    expect(global(chat({ name: "a".repeat(33) }))).toEqual(leaf("name", "BASE_TYPE_BAD_LENGTH"));
    expect(global(chat({ name: "" }))).toEqual(leaf("name", "BASE_TYPE_BAD_LENGTH"));
    expect(global({ description: "d" })).toEqual(leaf("name", "BASE_TYPE_REQUIRED"));
    for (const name of ["über-alles", "l'été", "नमस्ते", "สวัสดี", "コマンド", "x_1"]) expect(global(chat({ name }))).toBeUndefined();
    for (const name of ["Ban", "Über", "two words", "ban!", "ΣΑΣ"]) {
      expect(global(chat({ name }))).toEqual({ name: { _errors: [{ code: "APPLICATION_COMMAND_INVALID_NAME", message: "Command name is invalid" }] } });
    }
  });

  it("lets USER and MESSAGE names hold spaces and capitals, 1 to 32 of them", () => {
    expect(global({ type: 3, name: "Translate This Message Right Now" })).toBeUndefined();
    expect(global({ type: 3, name: "x".repeat(33) })).toEqual(leaf("name", "BASE_TYPE_BAD_LENGTH"));
  });

  it("requires a CHAT_INPUT description of 1-100 characters, and refuses one on USER and MESSAGE commands", () => {
    expect(global(chat({ description: "d".repeat(100) }))).toBeUndefined();
    expect(global(chat({ description: "d".repeat(101) }))).toEqual({
      description: { _errors: [{ code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 100 in length." }] },
    });
    expect(global({ name: "ban" })).toEqual({ description: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] } });
    expect(global({ type: 2, name: "Report", description: "Reports" })).toEqual(leaf("description", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
    expect(global({ type: 2, name: "Report", options: [str("x")] })).toEqual(leaf("options", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
  });

  it("holds localized variants to the base field's rules, under the platform's locales only", () => {
    expect(global(chat({ name_localizations: { "zh-TW": "封鎖", "pt-BR": "banir" } }))).toBeUndefined();
    expect(global(chat({ name_localizations: { de: "Bannen" } }))).toEqual(leaf("name_localizations.de", "APPLICATION_COMMAND_INVALID_NAME"));
    expect(global(chat({ name_localizations: { en: "ban" } }))).toEqual({
      name_localizations: { en: { _errors: [{ code: "ENUM_TYPE_COERCE", message: 'Value "en" is not a valid enum value.' }] } },
    });
    expect(global(chat({ description_localizations: { fr: "d".repeat(101) } }))).toEqual(leaf("description_localizations.fr", "BASE_TYPE_BAD_LENGTH"));
    expect(global({ type: 2, name: "Report", name_localizations: { de: "Melden Sie Es" } })).toBeUndefined();
    expect(global(withOptions(str("user", { name_localizations: { ja: "ユーザー", de: "Nutzer" } })))).toEqual(
      leaf("options.0.name_localizations.de", "APPLICATION_COMMAND_INVALID_NAME"),
    );
  });
});

describe("options", () => {
  const options = (count: number) => Array.from({ length: count }, (_, i) => str(`o${i}`));

  it("takes up to 25 per level", () => {
    expect(global(chat({ options: options(25) }))).toBeUndefined();
    expect(global(chat({ options: options(26) }))).toEqual({
      options: { _errors: [{ code: "BASE_TYPE_MAX_LENGTH", message: "Must be 25 or fewer in length." }] },
    });
    expect(global(withOptions(sub("s", options(26))))).toEqual(leaf("options.0.options", "BASE_TYPE_MAX_LENGTH"));
  });

  it("places required options before the others, in each list", () => {
    expect(global(withOptions(str("a", { required: true }), str("b"), str("c")))).toBeUndefined();
    expect(global(withOptions(str("a"), str("b", { required: true })))).toEqual({
      options: {
        1: { _errors: [{ code: "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", message: "Required options must be placed before non-required options" }] },
      },
    });
    expect(global(withOptions(sub("s", [str("a"), str("b", { required: true })])))).toEqual(
      leaf("options.0.options.1", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
    );
  });

  it("nests subcommands in groups and value options in subcommands, nothing deeper", () => {
    expect(global(withOptions(group("g", [sub("a", [str("x")]), sub("b")]), sub("c")))).toBeUndefined();
    expect(global(withOptions(sub("s"), str("x")))).toEqual(leaf("options", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"));
    expect(global(withOptions(group("g", [group("h", [sub("a")])])))).toEqual(leaf("options.0.options.0.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"));
    expect(global(withOptions(group("g", [str("x")])))).toEqual(leaf("options.0.options.0.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"));
    expect(global(withOptions(sub("s", [sub("t")])))).toEqual(leaf("options.0.options.0.type", "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID"));
    expect(global(withOptions(str("x", { options: [str("y")] })))).toEqual(leaf("options.0.options", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
    expect(global(withOptions({ type: 12, name: "x", description: "d" }))).toEqual(leaf("options.0.type", "BASE_TYPE_CHOICES"));
  });

  it("refuses a required subcommand, but takes the nulls, falses and empty lists libraries send", () => {
    expect(global(withOptions({ ...sub("s"), required: true }))).toEqual(leaf("options.0.required", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
    const lax = withOptions({ ...sub("s", [{ type: 5, name: "b", description: "d", choices: [], autocomplete: false, min_value: null }]), required: false });
    expect(ZGlobalCommandBodySchema.parse(lax).options).toEqual([
      { type: 1, name: "s", description: "a subcommand", options: [{ type: 5, name: "b", description: "d" }] },
    ]);
  });

  it("names options uniquely within one list, in every locale", () => {
    expect(global(withOptions(sub("a", [str("x")]), sub("b", [str("x")])))).toBeUndefined();
    expect(global(withOptions(str("x"), str("y"), str("x")))).toEqual(leaf("options.2.name", "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME"));
    expect(global(withOptions(str("x", { name_localizations: { de: "y" } }), str("y")))).toEqual(
      leaf("options.0.name_localizations.de", "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME"),
    );
    expect(global(withOptions(str("x", { name_localizations: { de: "z" } }), str("y", { name_localizations: { de: "z" } })))).toEqual(
      leaf("options.1.name_localizations.de", "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME"),
    );
    // An option's own localized name may repeat its default name.
    expect(global(withOptions(str("x", { name_localizations: { de: "x" } }), str("y")))).toBeUndefined();
  });

  it("gives choices only to string, integer and number options, up to 25, never with autocomplete", () => {
    const choices = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `c${i}`, value: `v${i}` }));
    expect(global(withOptions(str("x", { choices: choices(25) })))).toBeUndefined();
    expect(global(withOptions(str("x", { choices: choices(26) })))).toEqual(leaf("options.0.choices", "BASE_TYPE_MAX_LENGTH"));
    expect(global(withOptions({ type: 5, name: "x", description: "d", choices: choices(1) }))).toEqual(
      leaf("options.0.choices", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"),
    );
    expect(global(withOptions(str("x", { autocomplete: true })))).toBeUndefined();
    expect(global(withOptions(str("x", { autocomplete: true, choices: choices(1) })))).toEqual(
      leaf("options.0.autocomplete", "APPLICATION_COMMAND_OPTIONS_AUTOCOMPLETE_INVALID"),
    );
    expect(global(withOptions({ type: 6, name: "x", description: "d", autocomplete: true }))).toEqual(
      leaf("options.0.autocomplete", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"),
    );
  });

  it("holds a choice's name to 1-100 characters and its value to the option's type and range", () => {
    const choice = (type: number, value: unknown, name = "c") => withOptions({ type, name: "x", description: "d", choices: [{ name, value }] });
    expect(global(choice(3, "v".repeat(100), "n".repeat(100)))).toBeUndefined();
    expect(global(choice(3, "v", "n".repeat(101)))).toEqual(leaf("options.0.choices.0.name", "BASE_TYPE_BAD_LENGTH"));
    expect(global(choice(3, "v".repeat(101)))).toEqual(leaf("options.0.choices.0.value", "BASE_TYPE_BAD_LENGTH"));
    expect(global(choice(3, 1))).toEqual(leaf("options.0.choices.0.value", "BASE_TYPE_STRING"));
    expect(global(choice(4, 2 ** 53 - 1))).toBeUndefined();
    expect(global(choice(4, -(2 ** 53 - 1)))).toBeUndefined();
    expect(global(choice(4, 2 ** 53))).toEqual(leaf("options.0.choices.0.value", "NUMBER_TYPE_MAX"));
    expect(global(choice(4, 1.5))).toEqual(leaf("options.0.choices.0.value", "NUMBER_TYPE_COERCE"));
    expect(global(choice(4, "1"))).toEqual(leaf("options.0.choices.0.value", "NUMBER_TYPE_COERCE"));
    expect(global(choice(10, 2 ** 53))).toBeUndefined();
    expect(global(choice(10, 0.25))).toBeUndefined();
    expect(global(choice(10, -(2 ** 53) - 2))).toEqual(leaf("options.0.choices.0.value", "NUMBER_TYPE_MIN"));
  });

  it("bounds min_value and max_value on integer and number options, min no more than max", () => {
    const ranged = (type: number, fields: Record<string, unknown>) => withOptions({ type, name: "x", description: "d", ...fields });
    expect(global(ranged(4, { min_value: -(2 ** 53 - 1), max_value: 2 ** 53 - 1 }))).toBeUndefined();
    expect(global(ranged(4, { min_value: 5, max_value: 5 }))).toBeUndefined();
    expect(global(ranged(4, { min_value: 6, max_value: 5 }))).toEqual(leaf("options.0.max_value", "APPLICATION_COMMAND_OPTIONS_RANGE_INVALID"));
    expect(global(ranged(4, { max_value: 2 ** 53 }))).toEqual(leaf("options.0.max_value", "NUMBER_TYPE_MAX"));
    expect(global(ranged(4, { min_value: 0.5 }))).toEqual(leaf("options.0.min_value", "NUMBER_TYPE_COERCE"));
    expect(global(ranged(10, { min_value: -(2 ** 53), max_value: 0.5 }))).toBeUndefined();
    expect(global(ranged(10, { max_value: 2 ** 53 + 2 }))).toEqual(leaf("options.0.max_value", "NUMBER_TYPE_MAX"));
    expect(global(ranged(3, { min_value: 1 }))).toEqual(leaf("options.0.min_value", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
  });

  it("bounds min_length (0-6000) and max_length (1-6000) on string options, min no more than max", () => {
    expect(global(withOptions(str("x", { min_length: 0, max_length: 6000 })))).toBeUndefined();
    expect(global(withOptions(str("x", { min_length: -1 })))).toEqual(leaf("options.0.min_length", "NUMBER_TYPE_MIN"));
    expect(global(withOptions(str("x", { min_length: 6001 })))).toEqual(leaf("options.0.min_length", "NUMBER_TYPE_MAX"));
    expect(global(withOptions(str("x", { max_length: 0 })))).toEqual(leaf("options.0.max_length", "NUMBER_TYPE_MIN"));
    expect(global(withOptions(str("x", { max_length: 6001 })))).toEqual(leaf("options.0.max_length", "NUMBER_TYPE_MAX"));
    expect(global(withOptions(str("x", { min_length: 10, max_length: 9 })))).toEqual(leaf("options.0.max_length", "APPLICATION_COMMAND_OPTIONS_RANGE_INVALID"));
    expect(global(withOptions({ type: 4, name: "x", description: "d", max_length: 5 }))).toEqual(
      leaf("options.0.max_length", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"),
    );
  });

  it("takes channel_types on channel options and file_types on attachment options only", () => {
    const channel = (channel_types: unknown) => withOptions({ type: 7, name: "where", description: "d", channel_types });
    expect(global(channel([0, 2, 4, 5, 11, 15, 16]))).toBeUndefined();
    expect(global(channel([0, 14]))).toEqual(leaf("options.0.channel_types.1", "BASE_TYPE_CHOICES"));
    expect(global(channel([99]))).toEqual(leaf("options.0.channel_types.0", "BASE_TYPE_CHOICES"));
    expect(global(withOptions(str("x", { channel_types: [0] })))).toEqual(leaf("options.0.channel_types", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));

    const attachment = (file_types: unknown) => withOptions({ type: 11, name: "file", description: "d", file_types });
    expect(global(attachment(["image", "video", "audio", ".png", ".tar.gz", ".a", ".b", ".c", ".d", ".e"]))).toBeUndefined();
    expect(global(attachment([".a", ".b", ".c", ".d", ".e", ".f", ".g", ".h", ".i", ".j", ".k"]))).toEqual(
      leaf("options.0.file_types", "BASE_TYPE_MAX_LENGTH"),
    );
    expect(global(attachment(["png"]))).toEqual(leaf("options.0.file_types.0", "APPLICATION_COMMAND_OPTIONS_FILE_TYPE_INVALID"));
    expect(global(withOptions(str("x", { file_types: ["image"] })))).toEqual(leaf("options.0.file_types", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
  });
});

describe("a command's size", () => {
  it("counts names, descriptions and choices over the whole tree, up to 8000", () => {
    expect(commandSize(LARGEST)).toBe(8000);
    expect(global(LARGEST)).toBeUndefined();
    expect(global({ ...LARGEST, description: "d".repeat(100) })).toEqual({
      _errors: [{ code: "APPLICATION_COMMAND_TOO_LARGE", message: "Command exceeds maximum size (8000)" }],
    });
  });

  it("counts each field by its longest localized variant, in code points", () => {
    expect(global({ ...LARGEST, description_localizations: { de: "d".repeat(99), fr: "d".repeat(50) } })).toBeUndefined();
    expect(global({ ...LARGEST, description_localizations: { de: "d".repeat(100) } })).toEqual(leaf("", "APPLICATION_COMMAND_TOO_LARGE"));
    const [first, ...rest] = LARGEST.options;
    const localizedChoice = { ...first!, choices: [{ ...first!.choices[0]!, name_localizations: { ja: "n".repeat(100) } }, ...first!.choices.slice(1)] };
    expect(global({ ...LARGEST, options: [localizedChoice, ...rest] })).toEqual(leaf("", "APPLICATION_COMMAND_TOO_LARGE"));
    expect(commandSize({ name: "a", description: "😀😀", options: [{ name: "b", choices: [{ name: "c", value: 1.5 }] }] })).toBe(1 + 2 + 1 + 1 + 3);
  });

  const localized = fc.dictionary(fc.constantFrom("de", "fr", "ja"), fc.string({ maxLength: 12 }), { maxKeys: 3 });
  const text = {
    name: fc.string({ maxLength: 8 }),
    name_localizations: localized,
    description: fc.string({ maxLength: 8 }),
    description_localizations: localized,
  };
  const choice = fc.record({ name: fc.string({ maxLength: 8 }), name_localizations: localized, value: fc.oneof(fc.string(), fc.integer()) });
  const leafOption = fc.record({ ...text, choices: fc.array(choice, { maxLength: 3 }) });
  const sized: fc.Arbitrary<SizedCommand> = fc.record({
    ...text,
    options: fc.array(fc.oneof(leafOption, fc.record({ ...text, options: fc.array(leafOption, { maxLength: 3 }) })), { maxLength: 3 }),
  });

  it("is the size of the same tree with every field replaced by its longest variant", () => {
    const length = (text: string) => [...text].length;
    const longest = (text: string, variants: Localizations | null | undefined) =>
      [text, ...Object.values(variants ?? {})].reduce((best, variant) => (length(variant) > length(best) ? variant : best));
    type Text = { name: string; name_localizations?: Localizations | null };
    type Node = Text & { description?: string; description_localizations?: Localizations | null };
    type Tree = Node & { choices?: readonly (Text & { value: string | number })[]; options?: readonly Tree[] };
    const flatten = (node: Tree): Tree => ({
      name: longest(node.name, node.name_localizations),
      description: longest(node.description ?? "", node.description_localizations),
      choices: node.choices?.map((choice) => ({ name: longest(choice.name, choice.name_localizations), value: choice.value })),
      options: node.options?.map(flatten),
    });
    fc.assert(fc.property(sized, (command) => commandSize(command) === commandSize(flatten(command))));
  });
});

describe("guild command bodies", () => {
  it("never hold an entry point", () => {
    expect(errorsOf(ZGuildCommandBodySchema, { type: 4, name: "launch" })).toEqual({
      type: { _errors: [{ code: "BASE_TYPE_CHOICES", message: "Value must be one of {1, 2, 3}." }] },
    });
  });

  it("drop the global-only fields discord.js sends, whatever they hold", () => {
    const parsed = ZGuildCommandBodySchema.parse(chat({ dm_permission: false, contexts: [9], integration_types: "x" }));
    expect(parsed).not.toHaveProperty("dm_permission");
    expect(parsed).not.toHaveProperty("contexts");
    expect(parsed).not.toHaveProperty("integration_types");
  });
});

describe("bulk overwrite bodies", () => {
  it("prefix errors with the command's index, and keep each command's id", () => {
    expect(errorsOf(ZGlobalCommandBulkBodySchema, [chat(), withOptions(str("ok"), str("Bad"))])).toEqual(
      leaf("1.options.1.name", "APPLICATION_COMMAND_INVALID_NAME"),
    );
    expect(errorsOf(ZGuildCommandBulkBodySchema, [chat({ id: "x" })])).toEqual(leaf("0.id", "BASE_TYPE_INVALID"));
    expect(ZGlobalCommandBulkBodySchema.parse([chat({ id: "1234" }), { type: 2, name: "ban" }]).map((c) => [c.id, c.type])).toEqual([
      ["1234", 1],
      [undefined, 2],
    ]);
  });

  it("refuse the later of two commands alike in name and type", () => {
    expect(errorsOf(ZGuildCommandBulkBodySchema, [chat(), { type: 2, name: "ban" }, { type: 3, name: "ban" }])).toBeUndefined();
    expect(errorsOf(ZGuildCommandBulkBodySchema, [chat(), { type: 2, name: "ban" }, chat({ type: 1 })])).toEqual({
      2: { name: { _errors: [{ code: "APPLICATION_COMMANDS_DUPLICATE_NAME", message: "Application command names must be unique" }] } },
    });
  });

  it("measure each command on its own, with the size error at its index", () => {
    expect(errorsOf(ZGlobalCommandBulkBodySchema, [LARGEST, { ...LARGEST, name: "c" }])).toBeUndefined();
    expect(errorsOf(ZGlobalCommandBulkBodySchema, [chat(), { ...LARGEST, name: "c", name_localizations: { de: "cc" } }])).toEqual({
      1: { _errors: [{ code: "APPLICATION_COMMAND_TOO_LARGE", message: "Command exceeds maximum size (8000)" }] },
    });
  });
});

describe("edits", () => {
  const storedUser = ZGlobalCommandBodySchema.parse({ type: 2, name: "Report User" });
  const storedChat = ZGlobalCommandBodySchema.parse(withOptions(str("reason", { name_localizations: { de: "grund" } })));

  /** What the service does with a PATCH body: merge it over the stored command and parse the result whole. */
  type Stored = Parameters<typeof mergeCommandEdit>[0];

  function edit(stored: Stored, body: unknown, scope: { guildId: string | null } = { guildId: null }) {
    const patch = (scope.guildId === null ? ZGlobalCommandEditBodySchema : ZGuildCommandEditBodySchema).parse(body);
    return parseCommandBody(scope, mergeCommandEdit(stored, patch));
  }

  function editErrors(stored: Stored, body: unknown): unknown {
    try {
      edit(stored, body);
    } catch (error) {
      if (error instanceof ApiError) return error.toBody().errors;
      throw error;
    }
    return undefined;
  }

  it("leave the stored command as it was when empty, and never change its type", () => {
    expect(edit(storedChat, {})).toEqual(storedChat);
    expect(edit(storedUser, { type: 1, description: "" })).toEqual(storedUser);
  });

  it("replace the given fields wholly, null clearing one", () => {
    const edited = edit(storedChat, { options: [str("user")], name_localizations: { fr: "bannir" }, nsfw: true, default_member_permissions: 0 });
    expect(edited).toMatchObject({
      options: [{ type: 3, name: "user", description: "text" }],
      name_localizations: { fr: "bannir" },
      nsfw: true,
      default_member_permissions: "0",
    });
    expect(edit(edited, { name_localizations: null, options: null, nsfw: null })).toMatchObject({ name_localizations: null, options: [], nsfw: false });
  });

  it("hold the merged command to the stored type's rules, at the edit's own paths", () => {
    expect(editErrors(storedUser, { description: "Reports a user" })).toEqual(leaf("description", "APPLICATION_COMMAND_FIELD_NOT_ALLOWED"));
    expect(editErrors(storedUser, { name: "Report Them" })).toBeUndefined();
    expect(editErrors(storedChat, { name: "Report Them" })).toEqual(leaf("name", "APPLICATION_COMMAND_INVALID_NAME"));
    expect(editErrors(storedChat, { options: [str("a"), str("b", { required: true })] })).toEqual(
      leaf("options.1", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
    );
  });

  it("drop a guild edit's global-only fields", () => {
    const storedGuild = ZGuildCommandBodySchema.parse(chat());
    expect(ZGuildCommandEditBodySchema.parse({ contexts: [0], dm_permission: false, integration_types: [1], nsfw: true })).toEqual({ nsfw: true });
    expect(parseCommandBody({ guildId: "1" }, mergeCommandEdit(storedGuild, { nsfw: true }))).toEqual({ ...storedGuild, nsfw: true });
  });
});

describe("any valid command", () => {
  const name = fc.stringMatching(/^[a-z0-9_-]{1,12}$/);
  const description = fc.string({ minLength: 1, maxLength: 20 });
  const localizedNames = fc.dictionary(fc.constantFrom("de", "fr"), fc.stringMatching(/^[a-zà-öø-ÿ]{1,12}$/), { maxKeys: 2 });
  const unique = <T extends { name: string }>(item: fc.Arbitrary<T>, maxLength: number) =>
    fc.uniqueArray(item, { selector: (option) => option.name, maxLength });
  const requiredFirst = <T extends { name: string; required?: boolean | null }>(options: T[]) =>
    [...options].sort((a, b) => Number(b.required === true) - Number(a.required === true));

  const valueOption = fc.oneof(
    fc.record({
      type: fc.constant(3),
      name,
      description,
      required: fc.option(fc.boolean()),
      min_length: fc.option(fc.integer({ min: 0, max: 10 })),
      autocomplete: fc.boolean(),
    }),
    fc.record({
      type: fc.constant(4),
      name,
      description,
      required: fc.boolean(),
      choices: fc.uniqueArray(fc.record({ name: description, value: fc.integer() }), { maxLength: 3, selector: (c) => c.name }),
    }),
    fc.record({
      type: fc.constant(10),
      name,
      description,
      min_value: fc.double({ min: -1e6, max: 0, noNaN: true }).map((v) => v + 0),
      max_value: fc.double({ min: 0, max: 1e6, noNaN: true }),
    }),
    fc.record({ type: fc.constantFrom(5, 6, 8, 9), name, description, required: fc.boolean(), name_localizations: fc.constant(null) }),
    fc.record({ type: fc.constant(7), name, description, channel_types: fc.uniqueArray(fc.constantFrom(0, 2, 4, 5, 13, 15), { maxLength: 3 }) }),
    fc.record({ type: fc.constant(11), name, description, file_types: fc.uniqueArray(fc.constantFrom("image", ".png", ".pdf"), { maxLength: 3 }) }),
  );
  const values = unique(valueOption, 5).map((options) => requiredFirst(options));
  const subcommand = fc.record({ type: fc.constant(1), name, description, options: values, required: fc.constant(false) });
  const branches = unique(fc.oneof(subcommand, fc.record({ type: fc.constant(2), name, description, options: unique(subcommand, 3) })), 3);
  const command = fc.record({
    name,
    name_localizations: fc.option(localizedNames),
    description,
    options: fc.oneof(values, branches),
    default_member_permissions: fc.option(fc.oneof(fc.nat(), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map(String))),
    nsfw: fc.option(fc.boolean()),
    contexts: fc.option(fc.uniqueArray(fc.constantFrom(0, 1, 2), { maxLength: 3 })),
  });

  it("parses, and parses again to the same definition (what an edit's merge relies on)", () => {
    fc.assert(
      fc.property(command, (body) => {
        const once = ZGlobalCommandBodySchema.parse(body);
        expect(ZGlobalCommandBodySchema.parse(JSON.parse(JSON.stringify(once)))).toEqual(once);
      }),
    );
  });
});
