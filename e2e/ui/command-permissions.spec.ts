import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { clickUntilShown, expect, signIn, test } from "../fixtures.ts";
import { e2eDb, seedCommands, seedIntegrations, seedMemberWithRoles, seedRole, seedRolesAt } from "../seed.ts";

/** What a moderation bot registers: two global commands and one for the guild, with subcommands. */
const COMMANDS = {
  global: [
    {
      name: "ban",
      description: "Bans a member",
      default_member_permissions: String(P.BanMembers),
      options: [
        { type: 6, name: "user", description: "Who", required: true },
        { type: 3, name: "reason", description: "Why" },
      ],
    },
    { type: 3, name: "Report message" },
  ],
  guild: [
    {
      name: "warn",
      description: "Warnings",
      options: [
        { type: 1, name: "add", description: "Warns someone", options: [{ type: 6, name: "user", description: "Who", required: true }] },
        { type: 1, name: "clear", description: "Clears the warnings" },
      ],
    },
  ],
};

test("the owner sees an installed app's commands, denies a role one of them, and finds it after a reload; the app's page lists them", async ({
  page,
  owner,
}) => {
  const { application, botToken } = await seedIntegrations(owner);
  const muted = await seedRole(owner, "Muted");
  await signIn(page, owner);

  // Before the bot registers anything, the app's page says how it does.
  await page.goto(`/applications/${application.id}/commands`);
  await expect(page.getByText("No commands yet")).toBeVisible();
  await expect(page.getByText(`PUT /api/v10/applications/${application.id}/commands`)).toBeVisible();
  await seedCommands({ applicationId: application.id, botToken }, owner.guild.id, COMMANDS);

  await page.goto(`/guilds/${owner.guild.id}/integrations`);
  const commands = page.getByRole("region", { name: `Commands of ${application.name}` });
  const ban = commands.getByRole("row", { name: /\/ban/ });
  await expect(ban).toContainText("Bans a member");
  await expect(ban).toContainText("Default: Ban members");
  await expect(ban).toContainText("You may use it");
  await expect(commands.getByRole("row", { name: /Report message/ })).toBeVisible();
  await expect(commands.getByRole("row", { name: /\/warn/ })).toBeVisible();

  const dialog = page.getByRole("dialog", { name: "Permissions for /ban" });
  await clickUntilShown(page.getByRole("button", { name: "Permissions for /ban" }), dialog);
  await dialog.getByRole("combobox", { name: "Add a role" }).click();
  await page.getByRole("option", { name: "Muted" }).click();
  const row = dialog.getByRole("listitem", { name: "Muted" });
  await row.getByText("Deny", { exact: true }).click();
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Permissions saved")).toBeVisible();
  await expect(ban).toContainText("Muted denied");

  await page.reload();
  await expect(ban).toContainText("Muted denied");
  const stored = await e2eDb().applicationCommandPermissions.findFirstOrThrow({ where: { guildId: owner.guild.id, applicationId: application.id } });
  expect(JSON.parse(stored.permissions)).toEqual([{ id: muted.id, type: 1, permission: false }]);

  // Emptying the list is confirmed first; then the command follows the app's settings again.
  await clickUntilShown(page.getByRole("button", { name: "Permissions for /ban" }), dialog);
  await expect(dialog.getByRole("listitem", { name: "Muted" })).toBeVisible();
  await dialog.getByRole("button", { name: "Remove all" }).click();
  await dialog.getByRole("button", { name: "Save" }).click();
  const confirm = page.getByRole("dialog", { name: "Remove every overwrite" });
  await expect(confirm).toContainText("/ban goes back to the app's settings and its default permissions (Ban members).");
  await confirm.getByRole("button", { name: "Remove all" }).click();
  await expect(dialog).toBeHidden();
  await expect(ban).toContainText("The app's settings");
  expect(await e2eDb().applicationCommandPermissions.count({ where: { guildId: owner.guild.id, applicationId: application.id } })).toBe(0);

  await page.goto(`/applications/${application.id}/commands`);
  const global = page.getByRole("region", { name: "Global commands" });
  await expect(global.getByRole("row", { name: /\/ban/ })).toContainText("user: User, reason: Text (optional)");
  await expect(global.getByRole("row", { name: /Report message/ })).toContainText("Message");
  const guild = page.getByRole("region", { name: `Commands of ${owner.guild.name}` });
  await expect(guild.getByRole("row", { name: /\/warn/ })).toContainText("add — user: User");
  await expect(guild.getByRole("row", { name: /\/warn/ })).toContainText("clear");
});

test("a member who manages the guild but not its roles sees why they may not change who uses a command", async ({ page, owner }) => {
  const { application, botToken } = await seedIntegrations(owner);
  await seedCommands({ applicationId: application.id, botToken }, owner.guild.id, { global: COMMANDS.global });
  const [managers] = await seedRolesAt(owner.guild.id, [{ name: "Managers", position: 1, permissions: P.ManageGuild }]);
  const member = await seedMemberWithRoles(owner, "manager", [managers!.id]);
  await signIn(page, member);
  await page.goto(`/guilds/${owner.guild.id}/integrations`);
  const commands = page.getByRole("region", { name: `Commands of ${application.name}` });
  const ban = commands.getByRole("row", { name: /\/ban/ });
  await expect(ban).toContainText("Only members with Ban members may use /ban by default.");
  await expect(ban.getByRole("button", { name: "Permissions for /ban" })).toBeDisabled();
  await expect(ban.getByRole("button", { name: "Permissions for /ban" })).toHaveAttribute("aria-description", "Needs Manage roles.");
  await expect(commands.getByRole("button", { name: `Permissions for all commands of ${application.name}` })).toBeDisabled();
});
