// How commands read on the dashboard: names as members type them, options in a line, default
// permissions and contexts in words.
import { ApplicationCommandOptionType as O, ApplicationCommandType, InteractionContextType } from "discord-api-types/v10";
import { permissionLabel } from "~/server/permissions/permission-labels.ts";
import type { RouterOutputs } from "~/trpc/react.tsx";

export type CommandObject = RouterOutputs["command"]["application"]["global"]["commands"][number];

/** What an option needs of its shape here: options nest under subcommands and groups. */
type OptionShape = { type: number; name: string; required?: boolean; options?: readonly OptionShape[] };

export const COMMAND_TYPES: Record<number, { label: string; color: string }> = {
  [ApplicationCommandType.ChatInput]: { label: "Slash", color: "indigo" },
  [ApplicationCommandType.User]: { label: "User", color: "grape" },
  [ApplicationCommandType.Message]: { label: "Message", color: "teal" },
  [ApplicationCommandType.PrimaryEntryPoint]: { label: "Entry point", color: "orange" },
};

/** "/ban" for a slash command, as members type it; a context menu command by its name. */
export function commandLabel(command: { type: number; name: string }): string {
  return command.type === ApplicationCommandType.ChatInput ? `/${command.name}` : command.name;
}

const OPTION_TYPES: Record<number, string> = {
  [O.String]: "Text",
  [O.Integer]: "Integer",
  [O.Boolean]: "True/false",
  [O.User]: "User",
  [O.Channel]: "Channel",
  [O.Role]: "Role",
  [O.Mentionable]: "Mentionable",
  [O.Number]: "Number",
  [O.Attachment]: "Attachment",
};

function argumentsOf(options: readonly OptionShape[]): string {
  return options.map((option) => `${option.name}: ${OPTION_TYPES[option.type] ?? "Value"}${option.required ? "" : " (optional)"}`).join(", ");
}

/**
 * The command's options, one line each: its arguments, or each subcommand ("group sub") with
 * its own. A command with subcommands is never run itself, so its lines are theirs.
 */
export function optionLines(options: readonly OptionShape[] | undefined): string[] {
  if (!options?.length) return [];
  const subcommand = (path: string, sub: OptionShape) => (sub.options?.length ? `${path} — ${argumentsOf(sub.options)}` : path);
  const lines: string[] = [];
  const plain: OptionShape[] = [];
  for (const option of options) {
    if (option.type === O.SubcommandGroup) for (const sub of option.options ?? []) lines.push(subcommand(`${option.name} ${sub.name}`, sub));
    else if (option.type === O.Subcommand) lines.push(subcommand(option.name, option));
    else plain.push(option);
  }
  return plain.length ? [argumentsOf(plain), ...lines] : lines;
}

/** default_member_permissions in words: everyone (null), administrators only ("0"), or the permissions it names. */
export function defaultPermissionsText(value: string | null): string {
  if (value === null) return "Everyone";
  // The registry stored it as a validated decimal string.
  const required = BigInt(value);
  if (required === 0n) return "Administrators only";
  const labels: string[] = [];
  for (let bit = 1n; bit <= required; bit <<= 1n) if ((required & bit) !== 0n) labels.push(permissionLabel(bit));
  return labels.join(", ");
}

const CONTEXTS: Record<number, string> = {
  [InteractionContextType.Guild]: "Guilds",
  [InteractionContextType.BotDM]: "Bot DMs",
  [InteractionContextType.PrivateChannel]: "Private channels",
};

/** Where the command may be used: a guild command in its guild; a global one where `contexts` says, every context when unset. */
export function contextsText(command: { guild_id?: string; contexts?: readonly number[] | null }): string {
  if (command.guild_id !== undefined) return "This guild";
  const contexts = command.contexts ?? [InteractionContextType.Guild, InteractionContextType.BotDM, InteractionContextType.PrivateChannel];
  return contexts.length ? contexts.map((context) => CONTEXTS[context] ?? String(context)).join(", ") : "Nowhere";
}
