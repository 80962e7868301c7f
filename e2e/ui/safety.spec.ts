import { expect, test } from "../fixtures.ts";

test("pauses invites for an hour, shows the time left counting down, and resumes", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/safety`);
  const invites = page.getByRole("region", { name: "Pause invites" });
  await invites.getByLabel("Pause for").click();
  await page.getByRole("option", { name: "1 hour" }).click();
  await invites.getByRole("button", { name: "Pause", exact: true }).click();

  const timeLeft = invites.getByTestId("pause-invites-time-left");
  await expect(timeLeft).toHaveText(/^59 min \d\d s left$/);
  const first = await timeLeft.textContent();
  await expect(timeLeft).not.toHaveText(first!);
  // Direct messages stay as they were.
  await expect(page.getByRole("region", { name: "Pause direct messages" }).getByRole("button", { name: "Pause", exact: true })).toBeVisible();

  // The pause is the guild's, not the page's.
  await page.reload();
  await expect(timeLeft).toHaveText(/^59 min \d\d s left$/);
  await invites.getByRole("button", { name: "Resume now" }).click();
  await expect(invites.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
  await expect(timeLeft).toBeHidden();
});
