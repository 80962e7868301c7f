import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { clickUntilShown, expect, test } from "../fixtures.ts";
import { seedInvite, seedMembers, seedVanityFeature } from "../seed.ts";

/** Opens the invite's "Target users" dialog on the Invites page. */
async function openTargetUsers(page: Page, guildId: string, code: string) {
  await page.goto(`/guilds/${guildId}/invites`);
  const dialog = page.getByRole("dialog", { name: "Target users" });
  await clickUntilShown(page.getByRole("button", { name: `Target users of ${code}` }), dialog);
  await expect(dialog.getByText("No list uploaded yet.")).toBeVisible();
  return dialog;
}

const csvFile = (text: string) => ({ name: "targets.csv", mimeType: "text/csv", buffer: Buffer.from(text) });

test("a target-users CSV uploads with a progress bar to completion, and the list downloads", async ({ page, signedIn }) => {
  const [alpha, bravo] = await seedMembers(signedIn.guild.id, ["alpha", "bravo"]);
  const invite = await seedInvite(signedIn);
  const dialog = await openTargetUsers(page, signedIn.guild.id, invite.code);

  await dialog.getByLabel("Upload target users CSV").setInputFiles(csvFile(`user_id\n${alpha!.id}\n${bravo!.id}\n`));
  await expect(dialog.getByText("Upload complete")).toBeVisible();
  await expect(dialog.getByRole("status")).toHaveText("2 of 2 users");
  await expect(dialog.getByRole("progressbar", { name: "Upload progress" })).toHaveAttribute("aria-valuenow", "100");
  await expect(dialog.getByText("2 users may accept this invite")).toBeVisible();

  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download list" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`${invite.code}-target-users.csv`);
  const lines = (await readFile(await file.path(), "utf8")).trim().split("\n");
  expect(lines[0]).toBe("user_id");
  expect(lines.slice(1).sort()).toEqual([alpha!.id, bravo!.id].sort());
});

test("an invalid target-users file shows each line's problem and changes nothing", async ({ page, signedIn }) => {
  const [alpha] = await seedMembers(signedIn.guild.id, ["alpha"]);
  const invite = await seedInvite(signedIn);
  const dialog = await openTargetUsers(page, signedIn.guild.id, invite.code);

  // Lines that hold no user id are refused at once.
  await dialog.getByLabel("Upload target users CSV").setInputFiles(csvFile(`user_id\n${alpha!.id}\nnot-an-id\n1,2\n`));
  await expect(dialog.getByText("The file was not accepted")).toBeVisible();
  const problems = dialog.getByLabel("Line problems").getByRole("listitem");
  await expect(problems).toHaveCount(2);
  await expect(problems.first()).toContainText("Line 3");
  await expect(problems.last()).toContainText("Line 4: expected one user id, found 2 values.");
  await expect(dialog.getByText("No list uploaded yet.")).toBeVisible();

  // Ids no user has are found while the file is processed: the upload fails, naming them.
  await dialog.getByLabel("Upload target users CSV").setInputFiles(csvFile(`user_id\n${alpha!.id}\n123456789012345678\n`));
  await expect(dialog.getByText("The list was not applied")).toBeVisible();
  await expect(dialog.getByText("Line 3: no user has the id 123456789012345678.")).toBeVisible();
});

test("a vanity code set on the settings page opens the guild's invite page", async ({ page, signedIn }) => {
  await seedVanityFeature(signedIn.guild.id);
  const code = `e2e-${Date.now().toString(36)}`;
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const section = page.getByRole("region", { name: "Vanity URL" });
  await expect(section.getByText("No vanity URL set.")).toBeVisible();
  await section.getByLabel("Vanity code").fill(code);
  await section.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Vanity URL saved")).toBeVisible();
  await expect(section.getByText(`/invite/${code}`)).toBeVisible();

  await page.goto(`/invite/${code}`);
  await expect(page.getByRole("heading", { name: signedIn.guild.name })).toBeVisible();

  await page.goto(`/guilds/${signedIn.guild.id}`);
  await expect(section.getByLabel("Vanity code")).toHaveValue(code);
  await section.getByRole("button", { name: "Remove" }).click();
  await expect(section.getByText("No vanity URL set.")).toBeVisible();
  await expect(section.getByLabel("Vanity code")).toHaveValue("");
});

test("a vanity code another guild holds is refused on the field", async ({ page, signedIn }) => {
  await seedVanityFeature(signedIn.guild.id);
  const invite = await seedInvite(signedIn);
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const section = page.getByRole("region", { name: "Vanity URL" });
  const input = section.getByLabel("Vanity code");
  await input.fill(invite.code);
  await section.getByRole("button", { name: "Save" }).click();
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await expect(section.getByText("Invite code is either invalid or taken.")).toBeVisible();
});
