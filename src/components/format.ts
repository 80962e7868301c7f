import { snowflakeTimestamp } from "~/server/snowflake/snowflake.ts";

export function formatMembers(count: number | undefined): string {
  if (count === undefined) return "";
  return `${count.toLocaleString("en-US")} ${count === 1 ? "member" : "members"}`;
}

const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });

/** When a snowflake id was made, e.g. "21 Nov 2026, 05:53". */
export function formatSnowflakeTime(id: string): string {
  return formatDateTime(snowflakeTimestamp(id));
}

/** A moment, e.g. "21 Nov 2026, 05:53". */
export function formatDateTime(date: Date): string {
  return dateTime.format(date);
}

/** "MANAGE_GUILD" / "ManageGuild" → "Manage guild". */
export function humanize(name: string): string {
  const words = name.includes("_") ? name.toLowerCase().split("_") : name.split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
