export function formatMembers(count: number | undefined): string {
  if (count === undefined) return "";
  return `${count.toLocaleString("en-US")} ${count === 1 ? "member" : "members"}`;
}

/** "MANAGE_GUILD" / "ManageGuild" → "Manage guild". */
export function humanize(name: string): string {
  const words = name.includes("_") ? name.toLowerCase().split("_") : name.split(/(?=[A-Z])/).map((w) => w.toLowerCase());
  const text = words.join(" ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}
