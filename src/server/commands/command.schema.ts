import {
  ApplicationCommandOptionType as O,
  ApplicationCommandType as T,
  type FileUploadType,
  ApplicationIntegrationType,
  EntryPointCommandHandlerType,
  InteractionContextType,
} from "discord-api-types/v10";
import { z } from "zod";
import { fromZodError } from "~/server/errors.ts";
import { isPermissionString } from "~/server/permissions/permissions.ts";
import { intBetween, intChoice, lengthBetween, ZSnowflakeSchema } from "~/server/validation/fields.ts";
import {
  COMMAND_ERRORS,
  COMMAND_FIELD_LIMITS,
  commandSizeProblems,
  duplicateCommandProblems,
  isChatInputName,
  isFileType,
  localeKeyProblems,
  NUMBER_LIMIT,
  OPTION_CHANNEL_TYPES,
  optionListProblems,
  optionPlacementProblems,
  rangedOptionProblems,
  type CommandProblem,
  type Localizations,
  type OptionLevel,
} from "./command-validation.ts";

// Request bodies of the application command registry (interactions.md 1.1-1.5). A parsed body is
// the command's normalized definition, ready to store and echo:
// - every command field is present: `type` 1 when absent, `name_localizations` and
//   `description_localizations` null when absent or empty, `description` "" on USER and MESSAGE
//   commands (and on an entry point without one), `options` [] when absent (always [] off
//   CHAT_INPUT), `default_member_permissions` a decimal string or null, `default_permission`
//   true, `nsfw` false; on global commands `dm_permission` true and `contexts` null when absent,
//   and `integration_types` absent when not given (the service fills the application's own);
//   `handler` on entry points only, APP_HANDLER when absent (a default that is unverified).
// - an option or choice keeps a field only when it says something: null, false and empty lists
//   or maps are dropped (`required` and `autocomplete` appear only when true). Two bodies that
//   mean the same command parse to the same definition, so comparing definitions tells a real change.

function report(ctx: z.core.ParsePayload, problems: readonly CommandProblem[]) {
  for (const { path, code, message } of problems) ctx.issues.push({ code: "custom", input: ctx.value, path, message, params: { code } });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What libraries send by habit for "not set": null, false, an empty list or map. */
function saysNothing(value: unknown): boolean {
  return value === null || value === false || (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0);
}

/** An option or choice without the fields that say nothing, so a field that does not apply counts only when it says something. */
function withoutUnsaidFields(value: unknown): unknown {
  return isPlainObject(value) ? Object.fromEntries(Object.entries(value).filter(([, field]) => !saysNothing(field))) : value;
}

/** One of a set of enum values: BASE_TYPE_CHOICES, as the platform words it. */
function enumChoice<const E extends number>(values: readonly E[]) {
  return intChoice(values).transform((value) => value as E);
}

/** A field a command of this type does not have: accepted only when it says nothing, and answered as a fresh `output()`. */
function notForThisType<const Out>(message: string, output: () => Out) {
  return z
    .unknown()
    .optional()
    .check((ctx) => {
      if (ctx.value !== undefined && ctx.value !== "" && !saysNothing(ctx.value)) report(ctx, [{ path: [], code: COMMAND_ERRORS.notForType, message }]);
    })
    .transform(output);
}

/** A localization map: platform locales only, each value held to the rules of the field it localizes. */
function localizations(value: z.ZodType<string>) {
  return z
    .record(z.string(), value)
    .check((ctx) => report(ctx, localeKeyProblems(ctx.value)))
    .transform((map) => map as Localizations);
}

/** A command's localization map, null when it has none. */
function commandLocalizations(value: z.ZodType<string>) {
  return localizations(value)
    .nullish()
    .transform((map) => (map && Object.keys(map).length > 0 ? map : null));
}

const ZChatInputNameSchema = lengthBetween(1, COMMAND_FIELD_LIMITS.name).check((ctx) => {
  if (!isChatInputName(ctx.value)) report(ctx, [{ path: [], ...COMMAND_ERRORS.invalidName }]);
});
/** USER and MESSAGE command names may hold spaces and capitals. */
const ZContextMenuNameSchema = lengthBetween(1, COMMAND_FIELD_LIMITS.name);
const ZDescriptionSchema = lengthBetween(1, COMMAND_FIELD_LIMITS.description);
const ZChoiceNameSchema = lengthBetween(1, COMMAND_FIELD_LIMITS.choiceText);

function choice<V extends z.ZodType<string | number>>(value: V) {
  return z.preprocess(withoutUnsaidFields, z.object({ name: ZChoiceNameSchema, name_localizations: localizations(ZChoiceNameSchema).optional(), value }));
}
const choices = <V extends z.ZodType<string | number>>(value: V) => z.array(choice(value)).max(COMMAND_FIELD_LIMITS.choices);

/** INTEGER options and choices: zod's integers are the safe ones, −(2^53−1) to 2^53−1, as the platform's. */
const ZIntegerValueSchema = z.number().int();
const ZNumberValueSchema = z.number().min(-NUMBER_LIMIT).max(NUMBER_LIMIT);

const optionText = {
  name: ZChatInputNameSchema,
  name_localizations: localizations(ZChatInputNameSchema).optional(),
  description: ZDescriptionSchema,
  description_localizations: localizations(ZDescriptionSchema).optional(),
};
const valueOption = { ...optionText, required: z.boolean().optional() };

type RangedOption = Parameters<typeof rangedOptionProblems>[0];
const rangedRules = (ctx: z.core.ParsePayload<RangedOption>) => report(ctx, rangedOptionProblems(ctx.value));

/** rangedOptionProblems's guarantee in the type, as discord-api-types has it: an option autocompletes or has choices. */
type AutocompleteOrChoices<V extends RangedOption> =
  (Omit<V, "autocomplete"> & { autocomplete?: undefined }) | (Omit<V, "autocomplete" | "choices"> & { autocomplete: true });
const autocompleteOrChoices = <V extends RangedOption>(option: V) => option as AutocompleteOrChoices<V>;

const ZStringOptionSchema = z
  .object({
    type: z.literal(O.String),
    ...valueOption,
    choices: choices(lengthBetween(1, COMMAND_FIELD_LIMITS.choiceText)).optional(),
    min_length: intBetween(0, COMMAND_FIELD_LIMITS.stringLength).optional(),
    max_length: intBetween(1, COMMAND_FIELD_LIMITS.stringLength).optional(),
    autocomplete: z.boolean().optional(),
  })
  .check(rangedRules)
  .transform(autocompleteOrChoices);

const ZIntegerOptionSchema = z
  .object({
    type: z.literal(O.Integer),
    ...valueOption,
    choices: choices(ZIntegerValueSchema).optional(),
    min_value: ZIntegerValueSchema.optional(),
    max_value: ZIntegerValueSchema.optional(),
    autocomplete: z.boolean().optional(),
  })
  .check(rangedRules)
  .transform(autocompleteOrChoices);

const ZNumberOptionSchema = z
  .object({
    type: z.literal(O.Number),
    ...valueOption,
    choices: choices(ZNumberValueSchema).optional(),
    min_value: ZNumberValueSchema.optional(),
    max_value: ZNumberValueSchema.optional(),
    autocomplete: z.boolean().optional(),
  })
  .check(rangedRules)
  .transform(autocompleteOrChoices);

const ZPlainOptionSchema = z.object({ type: z.literal([O.Boolean, O.User, O.Role, O.Mentionable]), ...valueOption });

const ZChannelOptionSchema = z.object({ type: z.literal(O.Channel), ...valueOption, channel_types: z.array(enumChoice(OPTION_CHANNEL_TYPES)).optional() });

const ZAttachmentOptionSchema = z.object({
  type: z.literal(O.Attachment),
  ...valueOption,
  file_types: z
    .array(
      z
        .string()
        .check((ctx) => {
          if (!isFileType(ctx.value)) report(ctx, [{ path: [], ...COMMAND_ERRORS.fileType }]);
        })
        .transform((fileType) => fileType as FileUploadType),
    )
    .max(COMMAND_FIELD_LIMITS.fileTypes)
    .optional(),
});

const VALUE_OPTION_SCHEMAS = [
  ZStringOptionSchema,
  ZIntegerOptionSchema,
  ZNumberOptionSchema,
  ZPlainOptionSchema,
  ZChannelOptionSchema,
  ZAttachmentOptionSchema,
] as const;

/**
 * An option at its level. Its type and the fields that type may carry are checked first, so a
 * misplaced option is told why in one error instead of every field its type lacks.
 */
function optionAt<S extends z.ZodType<{ type: number }, { type: number; [field: string]: unknown }>>(level: OptionLevel, schema: S) {
  const placed = z.looseObject({ type: intChoice(Object.values(O).filter((value) => typeof value === "number")) }).check((ctx) => {
    report(ctx, optionPlacementProblems(ctx.value, level));
  });
  return z.preprocess(withoutUnsaidFields, placed).pipe(schema);
}

function optionList<S extends z.ZodType<Parameters<typeof optionListProblems>[0][number]>>(level: OptionLevel, option: S) {
  return z
    .array(option)
    .max(COMMAND_FIELD_LIMITS.options)
    .check((ctx) => report(ctx, optionListProblems(ctx.value, level)));
}

const ZSubcommandOptionSchema = z.object({
  type: z.literal(O.Subcommand),
  ...optionText,
  options: optionList("subcommand", optionAt("subcommand", z.discriminatedUnion("type", VALUE_OPTION_SCHEMAS))).optional(),
});

const ZSubcommandGroupOptionSchema = z.object({
  type: z.literal(O.SubcommandGroup),
  ...optionText,
  options: optionList("group", optionAt("group", ZSubcommandOptionSchema)).optional(),
});

/** An option of a CHAT_INPUT command: a subcommand, a subcommand group or a value option. */
const ZCommandOptionSchema = optionAt(
  "command",
  z.discriminatedUnion("type", [ZSubcommandOptionSchema, ZSubcommandGroupOptionSchema, ...VALUE_OPTION_SCHEMAS]),
);
type TCommandOption = z.output<typeof ZCommandOptionSchema>;

const ZCommandOptionsSchema = optionList("command", ZCommandOptionSchema);

/**
 * A bitfield as a decimal string, or as a JSON integer (the API description types it so) that a
 * double holds exactly; stored as the string.
 */
const ZPermissionValueSchema = z
  .union([z.string(), z.number()])
  .check((ctx) => {
    const value = ctx.value;
    if (typeof value === "string" ? !isPermissionString(value) : !(Number.isSafeInteger(value) && value >= 0)) {
      report(ctx, [{ path: [], code: "BASE_TYPE_INVALID", message: "Invalid permission value." }]);
    }
  })
  .transform(String);

const booleanOr = (fallback: boolean) =>
  z
    .boolean()
    .nullish()
    .transform((value) => value ?? fallback);

const sharedFields = {
  default_member_permissions: ZPermissionValueSchema.nullish().transform((value) => value ?? null),
  default_permission: booleanOr(true),
  nsfw: booleanOr(false),
};

// Guild commands have none of these; client libraries send them anyway, so a guild body drops them unread.
const globalOnlyFields = {
  dm_permission: booleanOr(true),
  integration_types: z
    .array(enumChoice([ApplicationIntegrationType.GuildInstall, ApplicationIntegrationType.UserInstall]))
    .nullish()
    .transform((value) => value ?? undefined),
  contexts: z
    .array(enumChoice([InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel]))
    .nullish()
    .transform((value) => value ?? null),
};

const noOptions = notForThisType("Only CHAT_INPUT commands have options", (): TCommandOption[] => []);
const noHandler = notForThisType("Only PRIMARY_ENTRY_POINT commands have a handler", () => undefined);

const chatInputFields = {
  type: z.literal(T.ChatInput),
  name: ZChatInputNameSchema,
  name_localizations: commandLocalizations(ZChatInputNameSchema),
  description: ZDescriptionSchema,
  description_localizations: commandLocalizations(ZDescriptionSchema),
  options: ZCommandOptionsSchema.nullish().transform((options) => options ?? []),
  handler: noHandler,
  ...sharedFields,
};

const contextMenuFields = {
  type: z.literal([T.User, T.Message]),
  name: ZContextMenuNameSchema,
  name_localizations: commandLocalizations(ZContextMenuNameSchema),
  // The platform answers "" for these commands' description, so "" is accepted as saying nothing.
  description: notForThisType("USER and MESSAGE commands have no description", () => ""),
  description_localizations: notForThisType("USER and MESSAGE commands have no description", () => null),
  options: noOptions,
  handler: noHandler,
  ...sharedFields,
};

// An entry point's description is optional (discord-api-types); its name rules are taken from CHAT_INPUT (unverified).
const entryPointFields = {
  type: z.literal(T.PrimaryEntryPoint),
  name: ZChatInputNameSchema,
  name_localizations: commandLocalizations(ZChatInputNameSchema),
  description: lengthBetween(0, COMMAND_FIELD_LIMITS.description)
    .nullish()
    .transform((description) => description ?? ""),
  description_localizations: commandLocalizations(ZDescriptionSchema),
  options: noOptions,
  handler: enumChoice([EntryPointCommandHandlerType.AppHandler, EntryPointCommandHandlerType.DiscordLaunchActivity])
    .nullish()
    .transform((handler) => handler ?? EntryPointCommandHandlerType.AppHandler),
  ...sharedFields,
};

/** A command body: its type first (CHAT_INPUT when absent), then that type's fields, then its size. */
function commandBody<S extends z.ZodType<Parameters<typeof commandSizeProblems>[0], { type: number; [field: string]: unknown }>>(
  types: readonly T[],
  schema: S,
) {
  return z
    .looseObject({ type: intChoice(types).default(T.ChatInput) })
    .pipe(schema)
    .check((ctx) => {
      // Only a command that is otherwise valid is measured: the size error sits at the root, where it would hide every other.
      if (ctx.issues.length === 0) report(ctx, commandSizeProblems(ctx.value));
    });
}

/** POST /applications/{application.id}/commands: create, or overwrite the command of that name and type. */
export const ZGlobalCommandBodySchema = commandBody(
  [T.ChatInput, T.User, T.Message, T.PrimaryEntryPoint],
  z.discriminatedUnion("type", [
    z.object({ ...chatInputFields, ...globalOnlyFields }),
    z.object({ ...contextMenuFields, ...globalOnlyFields }),
    z.object({ ...entryPointFields, ...globalOnlyFields }),
  ]),
);
type TGlobalCommandBody = z.output<typeof ZGlobalCommandBodySchema>;

/** POST /applications/{application.id}/guilds/{guild.id}/commands: an entry point is never a guild command. */
export const ZGuildCommandBodySchema = commandBody(
  [T.ChatInput, T.User, T.Message],
  z.discriminatedUnion("type", [z.object(chatInputFields), z.object(contextMenuFields)]),
);
type TGuildCommandBody = z.output<typeof ZGuildCommandBodySchema>;

/** Either scope's command body. */
export type TCommandBody = TGlobalCommandBody | TGuildCommandBody;

type GlobalOnlyField = keyof typeof globalOnlyFields;
/** What is stored of a command beside its name and type; the global-only fields are absent from a guild command's. */
export type CommandDefinition = Omit<TGlobalCommandBody, "type" | "name" | GlobalOnlyField> & Partial<Pick<TGlobalCommandBody, GlobalOnlyField>>;

/** A body parsed with the full schema of its scope (global when `guildId` is null); 50035 when it breaks a rule. */
export function parseCommandBody(scope: { guildId: string | null }, body: unknown): TCommandBody {
  const result = (scope.guildId === null ? ZGlobalCommandBodySchema : ZGuildCommandBodySchema).safeParse(body);
  if (!result.success) throw fromZodError(result.error, body);
  return result.data;
}

const editFields = {
  name: z.unknown(),
  name_localizations: z.unknown(),
  description: z.unknown(),
  description_localizations: z.unknown(),
  options: z.unknown(),
  default_member_permissions: z.unknown(),
  default_permission: z.unknown(),
  nsfw: z.unknown(),
  handler: z.unknown(),
};

/**
 * PATCH …/commands/{command.id}: which fields change, each replacing the stored one wholly (null
 * clears it). The values are checked on the merged command (mergeCommandEdit), since what a field
 * may hold depends on the stored type and on the other fields. The type never changes.
 */
export const ZGuildCommandEditBodySchema = z.object(editFields).partial();
type TGuildCommandEditBody = z.output<typeof ZGuildCommandEditBodySchema>;

export const ZGlobalCommandEditBodySchema = z
  .object({ ...editFields, dm_permission: z.unknown(), integration_types: z.unknown(), contexts: z.unknown() })
  .partial();
type TGlobalCommandEditBody = z.output<typeof ZGlobalCommandEditBodySchema>;
export type TCommandEditBody = TGlobalCommandEditBody | TGuildCommandEditBody;

/**
 * The stored command with an edit's fields laid over it, to parse with parseCommandBody: an
 * edit is held to every rule a new command is, and its errors sit at the edit body's own paths.
 */
export function mergeCommandEdit(stored: CommandDefinition & { type: number; name: string }, edit: TCommandEditBody): Record<string, unknown> {
  const given = Object.entries(edit).filter(([, value]) => value !== undefined);
  return { ...stored, ...Object.fromEntries(given) };
}

/**
 * PUT …/commands: the whole set, each command matched to a stored one by `id` when it has one;
 * errors are prefixed by the command's index. Names are unique per type within the set.
 */
function bulkBody<S extends z.ZodType<{ type: number; name: string }>>(command: S) {
  // Only the command's side tells a body that is no object.
  const id = z.preprocess((item) => (isPlainObject(item) ? item : {}), z.object({ id: ZSnowflakeSchema.optional() }));
  return z.array(id.and(command)).check((ctx) => report(ctx, duplicateCommandProblems(ctx.value)));
}

export const ZGlobalCommandBulkBodySchema = bulkBody(ZGlobalCommandBodySchema);
type TGlobalCommandBulkBody = z.output<typeof ZGlobalCommandBulkBodySchema>;

export const ZGuildCommandBulkBodySchema = bulkBody(ZGuildCommandBodySchema);
type TGuildCommandBulkBody = z.output<typeof ZGuildCommandBulkBodySchema>;
/** One command of either scope's bulk overwrite. */
export type TCommandBulkItem = TGlobalCommandBulkBody[number] | TGuildCommandBulkBody[number];
