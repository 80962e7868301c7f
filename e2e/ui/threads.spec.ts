import { expect, test } from "../fixtures.ts";

test("starts a thread under a channel, archives it and deletes it", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  await page.getByRole("button", { name: "Start a thread in general" }).click();
  const dialog = page.getByRole("dialog", { name: "Start a thread" });
  await dialog.getByLabel("Thread name").fill("release-planning");
  await dialog.getByText("Public", { exact: true }).click();
  await dialog.getByRole("button", { name: "Start thread" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Thread started")).toBeVisible();

  const general = page.getByRole("listitem", { name: "general", exact: true });
  const thread = general.getByRole("list", { name: "Threads in general" }).getByRole("listitem", { name: "release-planning" });
  await expect(thread).toContainText("Public");
  await expect(thread.getByLabel("1 members")).toBeVisible();

  await thread.getByRole("button", { name: "Archive release-planning" }).click();
  await expect(thread).toBeHidden();
  await page.reload();
  await general.getByRole("button", { name: "Show 1 archived thread" }).click();
  await expect(thread).toContainText("Archived");
  await expect(thread.getByRole("button", { name: "Lock release-planning (Unarchive it first)" })).toBeDisabled();

  await thread.getByRole("button", { name: "Delete release-planning" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete thread" });
  await expect(confirm).toContainText("Delete the thread release-planning in #general?");
  await confirm.getByLabel("Reason").fill("Planning moved elsewhere");
  await confirm.getByRole("button", { name: "Delete thread" }).click();
  await expect(page.getByText("Thread deleted")).toBeVisible();
  await expect(page.getByRole("listitem", { name: "release-planning" })).toBeHidden();
});

test("sets a voice channel's status inline and clears it", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/channels`);
  const voice = page.getByRole("region", { name: "Category Voice Channels" }).getByRole("listitem", { name: "General" });
  await expect(voice).toContainText("Status: No status");
  await voice.getByRole("button", { name: "Set status of General" }).click();
  await voice.getByLabel("Voice status").fill("Raid night 🎮");
  await expect(voice).toContainText("12/500");
  await voice.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Voice status saved")).toBeVisible();
  await expect(voice).toContainText("Status: Raid night 🎮");

  await page.reload();
  await expect(voice).toContainText("Status: Raid night 🎮");
  await voice.getByRole("button", { name: "Set status of General" }).click();
  await voice.getByRole("button", { name: "Clear" }).click();
  await expect(voice).toContainText("Status: No status");
});
