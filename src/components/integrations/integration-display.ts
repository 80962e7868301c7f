import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";
import type { RouterOutputs } from "~/trpc/react.tsx";

export type IntegrationRow = RouterOutputs["integration"]["list"][number];

/** How each kind of integration is labelled and coloured. */
export const INTEGRATION_KINDS: Record<IntegrationRow["type"], { label: string; color: string }> = {
  discord: { label: "Bot", color: "indigo" },
  twitch: { label: "Twitch", color: "grape" },
  youtube: { label: "YouTube", color: "red" },
  guild_subscription: { label: "Server subscription", color: "teal" },
};

/** When the integration was added: its id is a snowflake. */
export function integrationAddedAt(integration: Pick<IntegrationRow, "id">): Date {
  return snowflakeTimestamp(integration.id);
}

/** What removing the integration does, as the server does it (integration.service.ts). */
export function removalEffects(integration: IntegrationRow, roleName: string | null): string[] {
  if (integration.type === "discord") {
    const bot = integration.application?.bot?.username ?? integration.account.name;
    return [`The bot ${bot} is kicked from the guild.`, "The webhooks it created are deleted."];
  }
  const effects = [`${INTEGRATION_KINDS[integration.type].label} account ${integration.account.name} stops syncing to this guild.`];
  if (integration.role_id) effects.push(`Its managed role${roleName ? ` "${roleName}"` : ""} is deleted; members who had it lose it.`);
  return effects;
}
