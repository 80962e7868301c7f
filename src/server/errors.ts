import { RESTJSONErrorCodes } from "discord-api-types/v10";
import type { z } from "zod";

type ErrorSpec = {
  status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 429 | 500;
  code: number;
  message: string;
  trpcCode:
    | "BAD_REQUEST"
    | "UNAUTHORIZED"
    | "FORBIDDEN"
    | "NOT_FOUND"
    | "METHOD_NOT_SUPPORTED"
    | "CONFLICT"
    | "PAYLOAD_TOO_LARGE"
    | "TOO_MANY_REQUESTS"
    | "INTERNAL_SERVER_ERROR";
};

/** The one table of domain errors: REST status + platform code, and the tRPC code. */
export const ERRORS = {
  UNAUTHORIZED: { status: 401, code: 0, message: "401: Unauthorized", trpcCode: "UNAUTHORIZED" },
  NOT_FOUND: { status: 404, code: 0, message: "404: Not Found", trpcCode: "NOT_FOUND" },
  METHOD_NOT_ALLOWED: { status: 405, code: 0, message: "405: Method Not Allowed", trpcCode: "METHOD_NOT_SUPPORTED" },
  INTERNAL: { status: 500, code: 0, message: "500: Internal Server Error", trpcCode: "INTERNAL_SERVER_ERROR" },
  /** Test mode's snapshots (twin/twin-snapshots.ts): the message says which snapshot or why not. */
  UNKNOWN_TWIN_SNAPSHOT: { status: 404, code: 0, message: "Unknown snapshot", trpcCode: "NOT_FOUND" },
  TWIN_SNAPSHOTS_UNAVAILABLE: { status: 400, code: 0, message: "Snapshots need a twin on SQLite without Redis", trpcCode: "BAD_REQUEST" },
  REQUEST_TOO_LARGE: { status: 413, code: RESTJSONErrorCodes.RequestEntityTooLarge, message: "Request entity too large", trpcCode: "PAYLOAD_TOO_LARGE" },
  INVALID_JSON: {
    status: 400,
    code: RESTJSONErrorCodes.RequestBodyContainsInvalidJSON,
    message: "The request body contains invalid JSON.",
    trpcCode: "BAD_REQUEST",
  },
  // Test mode: a gateway fault asked of a twin whose process serves no gateway.
  GATEWAY_NOT_RUNNING: { status: 400, code: 0, message: "The gateway is not running in this process", trpcCode: "BAD_REQUEST" },
  UNKNOWN_CHANNEL: { status: 404, code: RESTJSONErrorCodes.UnknownChannel, message: "Unknown Channel", trpcCode: "NOT_FOUND" },
  UNKNOWN_GUILD: { status: 404, code: RESTJSONErrorCodes.UnknownGuild, message: "Unknown Guild", trpcCode: "NOT_FOUND" },
  UNKNOWN_MEMBER: { status: 404, code: RESTJSONErrorCodes.UnknownMember, message: "Unknown Member", trpcCode: "NOT_FOUND" },
  UNKNOWN_ROLE: { status: 404, code: RESTJSONErrorCodes.UnknownRole, message: "Unknown Role", trpcCode: "NOT_FOUND" },
  UNKNOWN_USER: { status: 404, code: RESTJSONErrorCodes.UnknownUser, message: "Unknown User", trpcCode: "NOT_FOUND" },
  UNKNOWN_EMOJI: { status: 404, code: RESTJSONErrorCodes.UnknownEmoji, message: "Unknown Emoji", trpcCode: "NOT_FOUND" },
  UNKNOWN_STICKER: { status: 404, code: RESTJSONErrorCodes.UnknownSticker, message: "Unknown Sticker", trpcCode: "NOT_FOUND" },
  // The message names the limit reached (the guild's tier's, or an application's).
  MAX_EMOJIS: { status: 400, code: RESTJSONErrorCodes.MaximumNumberOfEmojisReached, message: "Maximum number of emojis reached", trpcCode: "BAD_REQUEST" },
  MAX_STICKERS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfStickersReached,
    message: "Maximum number of stickers reached",
    trpcCode: "BAD_REQUEST",
  },
  FILE_TOO_LARGE: {
    status: 400,
    code: RESTJSONErrorCodes.FileUploadedExceedsMaximumSize,
    message: "File uploaded exceeds the maximum size",
    trpcCode: "BAD_REQUEST",
  },
  INVALID_FILE: { status: 400, code: RESTJSONErrorCodes.InvalidFileUploaded, message: "Invalid file uploaded", trpcCode: "BAD_REQUEST" },
  MAX_REACTIONS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfReactionsReached,
    message: "Maximum number of reactions reached (20)",
    trpcCode: "BAD_REQUEST",
  },
  // Application commands (src/server/commands/).
  UNKNOWN_APPLICATION_COMMAND: {
    status: 404,
    code: RESTJSONErrorCodes.UnknownApplicationCommand,
    message: "Unknown application command",
    trpcCode: "NOT_FOUND",
  },
  UNKNOWN_APPLICATION_COMMAND_PERMISSIONS: {
    status: 404,
    code: RESTJSONErrorCodes.UnknownApplicationCommandPermissions,
    message: "Unknown application command permissions",
    trpcCode: "NOT_FOUND",
  },
  MAX_APPLICATION_COMMANDS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfApplicationCommandsReached,
    message: "Maximum number of application commands reached",
    trpcCode: "BAD_REQUEST",
  },
  MAX_DAILY_COMMAND_CREATES: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumDailyApplicationCommandCreatesReached,
    message: "Maximum number of daily application command creates has been reached (200)",
    trpcCode: "BAD_REQUEST",
  },
  APPLICATION_COMMAND_NAME_EXISTS: {
    status: 400,
    code: RESTJSONErrorCodes.ApplicationCommandWithThatNameAlreadyExists,
    message: "An application command with that name already exists",
    trpcCode: "CONFLICT",
  },
  NOT_AUTHORIZED_FOR_APPLICATION: {
    status: 403,
    code: RESTJSONErrorCodes.NotAuthorizedToPerformThisActionOnThisApplication,
    message: "You are not authorized to perform this action on this application",
    trpcCode: "FORBIDDEN",
  },
  BOTS_CANNOT_USE_ENDPOINT: {
    status: 403,
    code: RESTJSONErrorCodes.BotsCannotUseThisEndpoint,
    message: "Bots cannot use this endpoint",
    trpcCode: "FORBIDDEN",
  },
  MISSING_OAUTH2_SCOPE: {
    status: 403,
    code: RESTJSONErrorCodes.MissingRequiredOAuth2Scope,
    message: "Missing required OAuth2 scope",
    trpcCode: "FORBIDDEN",
  },
  CANNOT_MESSAGE_USER: {
    status: 403,
    code: RESTJSONErrorCodes.CannotSendMessagesToThisUser,
    message: "Cannot send messages to this user",
    trpcCode: "FORBIDDEN",
  },
  CANNOT_EXECUTE_ON_DM: {
    status: 403,
    code: RESTJSONErrorCodes.CannotExecuteActionOnDMChannel,
    message: "Cannot execute action on a DM channel",
    trpcCode: "FORBIDDEN",
  },
  MAX_PINS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfPinsReachedForTheChannel,
    message: "Maximum number of pins reached (50)",
    trpcCode: "BAD_REQUEST",
  },
  MAX_PERMISSION_OVERWRITES: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfChannelPermissionOverwritesReached,
    message: "Maximum number of channel permission overwrites reached (100)",
    trpcCode: "BAD_REQUEST",
  },
  BULK_DELETE_TOO_OLD: {
    status: 400,
    code: RESTJSONErrorCodes.OneOfTheMessagesProvidedWasTooOldForBulkDelete,
    message: "You can only bulk delete messages that are under 14 days old.",
    trpcCode: "BAD_REQUEST",
  },
  UNKNOWN_APPLICATION: { status: 404, code: RESTJSONErrorCodes.UnknownApplication, message: "Unknown Application", trpcCode: "NOT_FOUND" },
  UNKNOWN_INVITE: { status: 404, code: RESTJSONErrorCodes.UnknownInvite, message: "Unknown Invite", trpcCode: "NOT_FOUND" },
  UNKNOWN_LOBBY: { status: 404, code: RESTJSONErrorCodes.UnknownLobby, message: "Unknown Lobby", trpcCode: "NOT_FOUND" },
  UNKNOWN_WEBHOOK: { status: 404, code: RESTJSONErrorCodes.UnknownWebhook, message: "Unknown Webhook", trpcCode: "NOT_FOUND" },
  INVALID_WEBHOOK_TOKEN: { status: 401, code: RESTJSONErrorCodes.InvalidWebhookToken, message: "Invalid Webhook Token", trpcCode: "UNAUTHORIZED" },
  MAX_WEBHOOKS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfWebhooksReached,
    message: "Maximum number of webhooks reached (15)",
    trpcCode: "BAD_REQUEST",
  },
  MAX_GUILD_WEBHOOKS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfWebhooksPerGuildReached,
    message: "Maximum number of webhooks per guild reached (1000)",
    trpcCode: "BAD_REQUEST",
  },
  WEBHOOK_FORUM_NEEDS_THREAD: {
    status: 400,
    code: RESTJSONErrorCodes.WebhooksPostedToForumChannelsMustHaveAThreadNameOrThreadId,
    message: "Webhooks posted to forum channels must have a thread_name or thread_id",
    trpcCode: "BAD_REQUEST",
  },
  WEBHOOK_THREAD_NAME_AND_ID: {
    status: 400,
    code: RESTJSONErrorCodes.WebhooksPostedToForumChannelsCannotHaveBothAThreadNameAndThreadId,
    message: "Webhooks posted to forum channels cannot have both a thread_name and thread_id",
    trpcCode: "BAD_REQUEST",
  },
  WEBHOOK_THREADS_ONLY_IN_FORUMS: {
    status: 400,
    code: RESTJSONErrorCodes.WebhooksCanOnlyCreateThreadsInForumChannels,
    message: "Webhooks can only create threads in forum channels",
    trpcCode: "BAD_REQUEST",
  },
  UNKNOWN_INTEGRATION: { status: 404, code: RESTJSONErrorCodes.UnknownIntegration, message: "Unknown Integration", trpcCode: "NOT_FOUND" },
  MAX_INVITES: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfInvitesReached,
    message: "Maximum number of invites reached (1000)",
    trpcCode: "BAD_REQUEST",
  },
  INVITE_CODE_TAKEN: {
    status: 400,
    code: RESTJSONErrorCodes.InviteCodeInvalidOrTaken,
    message: "Invite code is either invalid or taken.",
    trpcCode: "BAD_REQUEST",
  },
  INVITES_PAUSED: { status: 403, code: RESTJSONErrorCodes.MissingAccess, message: "Invites are paused for this guild.", trpcCode: "FORBIDDEN" },
  NOT_INVITED: { status: 403, code: RESTJSONErrorCodes.MissingAccess, message: "This invite is for other users.", trpcCode: "FORBIDDEN" },
  UNKNOWN_SCHEDULED_EVENT: {
    status: 404,
    code: RESTJSONErrorCodes.UnknownGuildScheduledEvent,
    message: "Unknown Guild Scheduled Event",
    trpcCode: "NOT_FOUND",
  },
  UNKNOWN_BAN: { status: 404, code: RESTJSONErrorCodes.UnknownBan, message: "Unknown Ban", trpcCode: "NOT_FOUND" },
  USER_BANNED: { status: 403, code: RESTJSONErrorCodes.UserBannedFromThisGuild, message: "The user is banned from this guild.", trpcCode: "FORBIDDEN" },
  NOT_IN_VOICE: {
    status: 400,
    code: RESTJSONErrorCodes.TargetUserIsNotConnectedToVoice,
    message: "Target user is not connected to voice.",
    trpcCode: "BAD_REQUEST",
  },
  INVALID_OAUTH2_TOKEN: { status: 403, code: RESTJSONErrorCodes.InvalidOAuth2AccessToken, message: "Invalid OAuth2 access token", trpcCode: "FORBIDDEN" },
  INVALID_GUILD: { status: 400, code: RESTJSONErrorCodes.InvalidGuild, message: "Invalid Guild", trpcCode: "BAD_REQUEST" },
  FAILED_TO_BAN_USERS: { status: 400, code: RESTJSONErrorCodes.FailedToBanUsers, message: "Failed to ban users", trpcCode: "BAD_REQUEST" },
  MAX_GUILDS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfGuildsReached,
    message: "Maximum number of guilds reached (100)",
    trpcCode: "BAD_REQUEST",
  },
  MAX_ROLES: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfGuildRolesReached,
    message: "Maximum number of guild roles reached (250)",
    trpcCode: "BAD_REQUEST",
  },
  MAX_CHANNELS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumNumberOfGuildChannelsReached,
    message: "Maximum number of guild channels reached (500)",
    trpcCode: "BAD_REQUEST",
  },
  WIDGET_DISABLED: { status: 403, code: RESTJSONErrorCodes.GuildWidgetDisabled, message: "Widget Disabled", trpcCode: "FORBIDDEN" },
  MISSING_ACCESS: { status: 403, code: RESTJSONErrorCodes.MissingAccess, message: "Missing Access", trpcCode: "FORBIDDEN" },
  MISSING_PERMISSIONS: { status: 403, code: RESTJSONErrorCodes.MissingPermissions, message: "Missing Permissions", trpcCode: "FORBIDDEN" },
  INVALID_FORM_BODY: { status: 400, code: RESTJSONErrorCodes.InvalidFormBodyOrContentType, message: "Invalid Form Body", trpcCode: "BAD_REQUEST" },
  INVALID_ROLE: { status: 400, code: RESTJSONErrorCodes.InvalidRole, message: "Invalid Role", trpcCode: "BAD_REQUEST" },
  NEEDS_MORE_BOOSTS: {
    status: 400,
    code: RESTJSONErrorCodes.ServerNeedsMoreBoostsToPerformThisAction,
    message: "This server needs more boosts to perform this action",
    trpcCode: "BAD_REQUEST",
  },
  ONBOARDING_REQUIREMENTS_NOT_MET: {
    status: 400,
    code: RESTJSONErrorCodes.CannotEnableOnboardingRequirementsAreNotMet,
    message: "Cannot enable onboarding, requirements are not met",
    trpcCode: "BAD_REQUEST",
  },
  ONBOARDING_BELOW_REQUIREMENTS: {
    status: 400,
    code: RESTJSONErrorCodes.CannotUpdateOnboardingWhileBelowRequirements,
    message: "Cannot update onboarding while below requirements",
    trpcCode: "BAD_REQUEST",
  },
  WRONG_CHANNEL_TYPE: {
    status: 400,
    code: RESTJSONErrorCodes.CannotExecuteActionOnThisChannelType,
    message: "Cannot execute action on this channel type",
    trpcCode: "BAD_REQUEST",
  },
  THREAD_ARCHIVED: {
    status: 400,
    code: RESTJSONErrorCodes.InvalidActionOnArchivedThread,
    message: "Tried to perform an operation on an archived thread",
    trpcCode: "BAD_REQUEST",
  },
  THREAD_ALREADY_CREATED: {
    status: 400,
    code: RESTJSONErrorCodes.ThreadAlreadyCreatedForMessage,
    message: "A thread has already been created for this message",
    trpcCode: "BAD_REQUEST",
  },
  MAX_ACTIVE_THREADS: {
    status: 400,
    code: RESTJSONErrorCodes.MaximumActiveThreads,
    message: "Maximum number of active threads reached",
    trpcCode: "BAD_REQUEST",
  },
  TAG_REQUIRED: {
    status: 400,
    code: RESTJSONErrorCodes.TagRequiredToCreateAForumPostInThisChannel,
    message: "A tag is required to create a forum post in this channel",
    trpcCode: "BAD_REQUEST",
  },
  CANNOT_DELETE_REQUIRED_CHANNEL: {
    status: 400,
    code: RESTJSONErrorCodes.CannotDeleteChannelRequiredForCommunityGuilds,
    message: "Cannot delete a channel required for Community guilds",
    trpcCode: "BAD_REQUEST",
  },
  UNKNOWN_MESSAGE: { status: 404, code: RESTJSONErrorCodes.UnknownMessage, message: "Unknown Message", trpcCode: "NOT_FOUND" },
  EMPTY_MESSAGE: { status: 400, code: RESTJSONErrorCodes.CannotSendAnEmptyMessage, message: "Cannot send an empty message", trpcCode: "BAD_REQUEST" },
  NOT_AUTHOR: {
    status: 403,
    code: RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser,
    message: "Cannot edit a message authored by another user",
    trpcCode: "FORBIDDEN",
  },
  ALREADY_CROSSPOSTED: {
    status: 400,
    code: RESTJSONErrorCodes.ThisMessageWasAlreadyCrossposted,
    message: "This message has already been crossposted",
    trpcCode: "BAD_REQUEST",
  },
  CANNOT_REPLY_WITHOUT_HISTORY: {
    status: 403,
    code: RESTJSONErrorCodes.CannotReplyWithoutPermissionToReadMessageHistory,
    message: "Cannot reply without permission to read message history",
    trpcCode: "FORBIDDEN",
  },
  CANNOT_FORWARD_UNREADABLE: {
    status: 403,
    code: RESTJSONErrorCodes.CannotForwardMessageWithUnreadableContent,
    message: "Cannot forward a message without permission to read its content",
    trpcCode: "FORBIDDEN",
  },
  // Partner SDK: provisional accounts, their external credentials, merging and unmerging.
  PROVISIONAL_NOT_ENABLED: {
    status: 400,
    code: RESTJSONErrorCodes.ProvisionalAccountsPermissionNotGranted,
    message: "Your application has not been granted the permission to use provisional accounts.",
    trpcCode: "BAD_REQUEST",
  },
  ID_TOKEN_EXPIRED: {
    status: 400,
    code: RESTJSONErrorCodes.IdTokenJWTExpired,
    message: "The ID token JWT you have provided is expired. You will need to get another one issued from the identity provider.",
    trpcCode: "BAD_REQUEST",
  },
  ID_TOKEN_ISSUER_MISMATCH: {
    status: 400,
    code: RESTJSONErrorCodes.IdTokenJWTIssuerMismatch,
    message: "The issuer in the ID token JWT you have provided does not match what you have configured.",
    trpcCode: "BAD_REQUEST",
  },
  ID_TOKEN_AUDIENCE_MISMATCH: {
    status: 400,
    code: RESTJSONErrorCodes.IdTokenJWTAudienceMismatch,
    message: "The audience in the ID token JWT you have provided does not match the audience you specified in your OIDC configuration.",
    trpcCode: "BAD_REQUEST",
  },
  ID_TOKEN_TOO_OLD: {
    status: 400,
    code: RESTJSONErrorCodes.IdTokenJWTIssuedTooLongAgo,
    message: "The ID token you provided was issued too long ago. ID tokens issued over a week ago are not accepted.",
    trpcCode: "BAD_REQUEST",
  },
  INVALID_CLIENT_SECRET: {
    status: 401,
    code: RESTJSONErrorCodes.InvalidClientSecret,
    message: "Your client secret is invalid. Double check what you are sending or regenerate your client secret.",
    trpcCode: "UNAUTHORIZED",
  },
  OIDC_JWKS_NOT_FOUND: { status: 400, code: 530009, message: "OIDC JWKS not found", trpcCode: "BAD_REQUEST" },
  USER_NOT_PROVISIONAL: {
    status: 400,
    code: 530010,
    message: "User account is non-provisional and should be authed through OAuth2",
    trpcCode: "BAD_REQUEST",
  },
  INVALID_MERGE_SOURCE: { status: 400, code: 530014, message: "Invalid merge source", trpcCode: "BAD_REQUEST" },
  INVALID_MERGE_DESTINATION: { status: 400, code: 530016, message: "Invalid merge destination", trpcCode: "BAD_REQUEST" },
  MERGE_SOURCE_BANNED: { status: 400, code: 530017, message: "Merge source user is banned", trpcCode: "BAD_REQUEST" },
  INVALID_OIDC_TOKEN: { status: 400, code: 530020, message: "Invalid OIDC JWT token", trpcCode: "BAD_REQUEST" },
  TOO_MANY_APPLICATION_IDENTITIES: { status: 400, code: 530023, message: "Too many application identities", trpcCode: "BAD_REQUEST" },
  OIDC_MISSING_KID: { status: 400, code: 530027, message: "Missing kid header", trpcCode: "BAD_REQUEST" },
  INVALID_USER_TYPE: { status: 400, code: 50229, message: "Invalid user type", trpcCode: "BAD_REQUEST" },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorKey = keyof typeof ERRORS;

/** A field error leaf, as the platform nests them under `errors`. */
export type FieldError = { code: string; message: string };
export type ErrorTree = { _errors?: FieldError[]; [key: string]: ErrorTree | FieldError[] | undefined };

const API_ERROR = Symbol.for("guildhall.ApiError");

export class ApiError extends Error {
  /**
   * Next loads this module once per bundle, and the process's runtime (its lobby writer, its
   * caches) may come from another bundle than the handler catching: an ApiError of any copy is one.
   */
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && API_ERROR in value;
  }

  readonly [API_ERROR] = true;
  readonly key: ErrorKey;
  readonly status: number;
  readonly code: number;
  readonly errors?: ErrorTree;
  /** Fields some endpoints add beside the envelope's (target_users_file's line problems). */
  readonly extra?: Record<string, unknown>;

  constructor(key: ErrorKey, options: { errors?: ErrorTree; message?: string; extra?: Record<string, unknown> } = {}) {
    const spec = ERRORS[key];
    super(options.message ?? spec.message);
    this.key = key;
    this.status = spec.status;
    this.code = spec.code;
    this.errors = options.errors;
    this.extra = options.extra;
  }

  get trpcCode(): ErrorSpec["trpcCode"] {
    return ERRORS[this.key].trpcCode;
  }

  toBody(): { code: number; message: string; errors?: ErrorTree } {
    return { ...this.extra, code: this.code, message: this.message, ...(this.errors && { errors: this.errors }) };
  }
}

/**
 * Adds one field error leaf to a tree at `path` (property names and array indexes). Paths
 * name fields the client chose (metadata keys such as `constructor` or `__proto__`), so
 * only own properties are read and every one is defined, never assigned: nothing inherited
 * is followed or written to. A node is either a field's errors or its children's, never both
 * (the platform's error schema): the first error found at or inside a field decides which.
 */
export function addFieldError(tree: ErrorTree, path: readonly PropertyKey[], error: FieldError): ErrorTree {
  let node = tree;
  for (const key of path) {
    if (Object.hasOwn(node, "_errors")) return tree;
    node = ownChild(node, String(key), (): ErrorTree => ({}));
  }
  const isBranch = Object.keys(node).some((key) => key !== "_errors");
  if (!isBranch) ownChild(node, "_errors", (): FieldError[] => []).push(error);
  return tree;
}

function ownChild<T>(node: ErrorTree, key: string, make: () => T): T {
  if (Object.hasOwn(node, key)) return node[key] as T;
  const value = make();
  Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}

/** 50035 Invalid Form Body with one field error: for rules a schema cannot see. */
export function invalidField(path: readonly PropertyKey[], code: string, message: string): ApiError {
  return new ApiError("INVALID_FORM_BODY", { errors: addFieldError({}, path, { code, message }) });
}

/**
 * Translates a zod failure into the platform's per-field error tree (50035). `input` is
 * what was parsed: zod issues do not carry it, and "missing" reads differently from "wrong".
 */
export function fromZodError(error: z.ZodError, input: unknown): ApiError {
  const tree: ErrorTree = {};
  for (const issue of error.issues) addFieldError(tree, issue.path, fieldErrorOf(issue, valueAt(input, issue.path)));
  return new ApiError("INVALID_FORM_BODY", { errors: tree });
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function fieldErrorOf(issue: z.core.$ZodIssue, input: unknown): FieldError {
  const params = (issue as { params?: { code?: string } }).params;
  if (issue.code === "custom" && params?.code) return { code: params.code, message: issue.message };
  switch (issue.code) {
    case "invalid_type":
      if (input === undefined) return { code: "BASE_TYPE_REQUIRED", message: "This field is required" };
      return invalidTypeError(issue.expected, input);
    case "too_small":
      if (issue.origin === "string" || issue.origin === "array")
        return { code: "BASE_TYPE_MIN_LENGTH", message: `Must be ${String(issue.minimum)} or more in length.` };
      return { code: "NUMBER_TYPE_MIN", message: `int value should be greater than or equal to ${String(issue.minimum)}.` };
    case "too_big":
      if (issue.origin === "string" || issue.origin === "array")
        return { code: "BASE_TYPE_MAX_LENGTH", message: `Must be ${String(issue.maximum)} or fewer in length.` };
      return { code: "NUMBER_TYPE_MAX", message: `int value should be less than or equal to ${String(issue.maximum)}.` };
    case "invalid_value":
      return { code: "BASE_TYPE_CHOICES", message: `Value must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}.` };
    case "invalid_format":
      return { code: "BASE_TYPE_INVALID", message: issue.message };
    case "unrecognized_keys":
      return { code: "BASE_TYPE_INVALID", message: `Unknown fields: ${issue.keys.join(", ")}.` };
    default:
      return { code: "BASE_TYPE_INVALID", message: issue.message };
  }
}

/** How much of an invalid value a message shows. */
const SHOWN_CHARS = 64;

/** An invalid value as a message names it: a scalar cut to SHOWN_CHARS, never a whole object or array. */
function shownValue(input: unknown): string {
  if (Array.isArray(input)) return "array";
  if (typeof input === "object" && input !== null) return "object";
  const text = typeof input === "string" ? input : String(input);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
}

function invalidTypeError(expected: string, input: unknown): FieldError {
  const shown = shownValue(input);
  switch (expected) {
    case "number":
    case "int":
    case "bigint":
      return { code: "NUMBER_TYPE_COERCE", message: `Value "${shown}" is not int.` };
    case "boolean":
      return { code: "BOOLEAN_TYPE_CONVERT", message: "Must be either true or false." };
    case "string":
      return { code: "BASE_TYPE_STRING", message: "Could not interpret value as string." };
    case "array":
      return { code: "LIST_TYPE_CONVERT", message: "Must be an array." };
    case "object":
    case "record":
      return { code: "DICT_TYPE_CONVERT", message: "Only dictionaries may be used in a DictType" };
    default:
      return { code: "BASE_TYPE_INVALID", message: `Invalid ${expected}.` };
  }
}
