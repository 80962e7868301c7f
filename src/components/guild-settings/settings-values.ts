import type { TGuildModifyBody } from "~/server/guilds/guild.schema.ts";
import type { RouterOutputs } from "~/trpc/react.tsx";

export type GuildObject = RouterOutputs["guild"]["get"];

/** The settings form: the PATCH body's fields, with select values as strings. */
export type SettingsValues = {
  name: string;
  description: string;
  /** Images: undefined keeps the stored one, null removes it, a data URI replaces it. */
  icon: string | null | undefined;
  banner: string | null | undefined;
  splash: string | null | undefined;
  discovery_splash: string | null | undefined;
  verification_level: string;
  default_message_notifications: string;
  explicit_content_filter: string;
  afk_channel_id: string | null;
  afk_timeout: string;
  system_channel_id: string | null;
  system_channel_flags: number;
  rules_channel_id: string | null;
  public_updates_channel_id: string | null;
  safety_alerts_channel_id: string | null;
  preferred_locale: string;
  premium_progress_bar_enabled: boolean;
  features: string[];
};

const IMAGE_FIELDS = ["icon", "banner", "splash", "discovery_splash"] as const;

export function toSettingsValues(guild: GuildObject): SettingsValues {
  return {
    name: guild.name,
    description: guild.description ?? "",
    icon: undefined,
    banner: undefined,
    splash: undefined,
    discovery_splash: undefined,
    verification_level: String(guild.verification_level),
    default_message_notifications: String(guild.default_message_notifications),
    explicit_content_filter: String(guild.explicit_content_filter),
    afk_channel_id: guild.afk_channel_id,
    afk_timeout: String(guild.afk_timeout),
    system_channel_id: guild.system_channel_id,
    system_channel_flags: guild.system_channel_flags,
    rules_channel_id: guild.rules_channel_id,
    public_updates_channel_id: guild.public_updates_channel_id,
    safety_alerts_channel_id: guild.safety_alerts_channel_id,
    preferred_locale: guild.preferred_locale,
    premium_progress_bar_enabled: guild.premium_progress_bar_enabled,
    features: guild.features,
  };
}

/** Every form field in the PATCH body's types. */
export function toModifyBody(values: SettingsValues): TGuildModifyBody {
  const body: TGuildModifyBody = {
    name: values.name,
    description: values.description.trim() === "" ? null : values.description,
    verification_level: Number(values.verification_level),
    default_message_notifications: Number(values.default_message_notifications),
    explicit_content_filter: Number(values.explicit_content_filter),
    afk_channel_id: values.afk_channel_id,
    afk_timeout: Number(values.afk_timeout),
    system_channel_id: values.system_channel_id,
    system_channel_flags: values.system_channel_flags,
    rules_channel_id: values.rules_channel_id,
    public_updates_channel_id: values.public_updates_channel_id,
    safety_alerts_channel_id: values.safety_alerts_channel_id,
    preferred_locale: values.preferred_locale as TGuildModifyBody["preferred_locale"],
    premium_progress_bar_enabled: values.premium_progress_bar_enabled,
    features: values.features,
  };
  for (const field of IMAGE_FIELDS) if (values[field] !== undefined) body[field] = values[field];
  return body;
}

/** Only what changed, so a save never needs permissions for fields left alone. */
export function changedBody(values: SettingsValues, initial: SettingsValues, guild: GuildObject): TGuildModifyBody {
  const next = toModifyBody(values);
  const before = toModifyBody(initial);
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(next)) {
    if (!sameValue(value, before[key as keyof TGuildModifyBody])) changed[key] = value;
  }
  // Removing an image the guild doesn't have is no change.
  for (const field of IMAGE_FIELDS) if (changed[field] === null && guild[field] === null) delete changed[field];
  return changed;
}

// Feature lists are sets: toggling one off and on again is no change.
function sameValue(a: unknown, b: unknown): boolean {
  const normal = (v: unknown) => JSON.stringify(Array.isArray(v) ? [...(v as string[])].sort() : v);
  return normal(a) === normal(b);
}
