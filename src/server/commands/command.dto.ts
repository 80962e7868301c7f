// Stored commands to the platform's command objects, with the localized fields list reads carry.
import { ApplicationIntegrationType, type APIApplicationCommand, type APIApplicationCommandOption, type LocalizationMap } from "discord-api-types/v10";
import type { ApplicationCommand } from "~/generated/prisma/client.ts";
import type { CommandDefinition } from "./command.schema.ts";

// Applications here install to guilds only (no user installs), the platform's default for a command.
const GUILD_INSTALL_ONLY = [ApplicationIntegrationType.GuildInstall];

/** The platform's `scope` of a global command in the registry's unique index. */
export const GLOBAL_SCOPE = "global";

/** What the columns do not hold of a command: the rest of its validated body, as stored. */
export function definitionOf(row: Pick<ApplicationCommand, "definition">): CommandDefinition {
  return JSON.parse(row.definition) as CommandDefinition;
}

/**
 * The command object. Single reads and writes carry the localization maps; list reads carry
 * them only with `with_localizations`, and otherwise the requester's variant as `*_localized`
 * (`locale` null: none).
 */
export function toCommandObject(
  row: ApplicationCommand,
  view: { localizations: true } | { localizations: false; locale: string | null } = { localizations: true },
): APIApplicationCommand {
  const def = definitionOf(row);
  const localized = view.localizations ? null : view.locale;
  const scoped =
    row.guildId === null
      ? { dm_permission: def.dm_permission, contexts: def.contexts, integration_types: def.integration_types ?? GUILD_INSTALL_ONLY }
      : { guild_id: row.guildId };
  return {
    id: row.id,
    application_id: row.applicationId,
    version: row.version,
    default_member_permissions: def.default_member_permissions,
    type: row.type,
    name: row.name,
    ...texts("name", def.name_localizations, view.localizations, localized),
    description: def.description,
    ...texts("description", def.description_localizations, view.localizations, localized),
    ...scoped,
    default_permission: def.default_permission,
    nsfw: def.nsfw,
    ...(def.options.length > 0 && { options: def.options.map((option) => localizeOption(option, view.localizations, localized)) }),
    ...(def.handler !== undefined && { handler: def.handler }),
  };
}

/** `<field>_localizations` (whole maps), or `<field>_localized` (one locale's text, when it has one). */
function texts(field: "name" | "description", map: LocalizationMap | null | undefined, whole: boolean, locale: string | null) {
  if (whole) return { [`${field}_localizations`]: map ?? null };
  const text = locale ? localizedText(map, locale) : undefined;
  return text === undefined ? {} : { [`${field}_localized`]: text };
}

function localizeOption(option: APIApplicationCommandOption, whole: boolean, locale: string | null): APIApplicationCommandOption {
  if (whole) return option;
  const { name_localizations, description_localizations, ...rest } = option;
  const out: Record<string, unknown> = {
    ...rest,
    ...texts("name", name_localizations, false, locale),
    ...texts("description", description_localizations, false, locale),
  };
  if ("options" in option && option.options) out.options = option.options.map((child) => localizeOption(child, false, locale));
  if ("choices" in option && option.choices) {
    out.choices = option.choices.map(({ name_localizations: names, ...choice }) => ({ ...choice, ...texts("name", names, false, locale) }));
  }
  return out as unknown as APIApplicationCommandOption;
}

/** The platform falls back between the English variants, and from Latin American Spanish to Spain's. */
const FALLBACKS: Record<string, string> = { "en-US": "en-GB", "en-GB": "en-US", "es-419": "es-ES" };

function localizedText(map: LocalizationMap | null | undefined, locale: string): string | undefined {
  if (!map) return undefined;
  const entries = map as Record<string, string | null | undefined>;
  const fallback = FALLBACKS[locale];
  return entries[locale] ?? (fallback ? entries[fallback] : undefined) ?? undefined;
}

/** The requester's locale for list reads: X-Discord-Locale, else Accept-Language's first tag. */
export function requestLocale(header: (name: string) => string | null): string | null {
  const explicit = header("x-discord-locale")?.trim();
  if (explicit) return explicit;
  const accepted = header("accept-language")?.split(",")[0]?.split(";")[0]?.trim();
  return accepted || null;
}
