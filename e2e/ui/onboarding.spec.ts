import { expect, test } from "../fixtures.ts";
import { seedOnboardingChannels } from "../seed.ts";

test("onboarding unlocks once 7 default channels, 5 of them open to everyone, are picked, and stays enabled after a reload", async ({ page, signedIn }) => {
  await seedOnboardingChannels(signedIn);
  await page.goto(`/guilds/${signedIn.guild.id}/onboarding`);
  await expect(page.getByRole("heading", { name: "Onboarding", level: 1 })).toBeVisible();
  const enable = page.getByLabel("Onboarding enabled");
  await expect(enable).toBeDisabled();
  await expect(page.getByText("0 / 7")).toBeVisible();

  const defaults = page.getByRole("region", { name: "Default channels" });
  // #rules lets @everyone read but not write: it counts toward 7, not toward 5.
  await expect(defaults.getByRole("checkbox", { name: "rules", exact: true })).toContainText("No chat for everyone");
  for (const name of ["rules", "general", "welcome", "introductions", "off-topic", "memes"]) {
    await defaults.getByRole("checkbox", { name, exact: true }).click();
  }
  await expect(page.getByText("Still short: 6 of 7 default channels.")).toBeVisible();
  await expect(enable).toBeDisabled();
  await defaults.getByRole("checkbox", { name: "help", exact: true }).click();
  await expect(page.getByText("7 / 7")).toBeVisible();
  await expect(page.getByText("6 / 5")).toBeVisible();
  await expect(enable).toBeEnabled();

  // A question whose answer adds a channel.
  await page.getByRole("button", { name: "Add question" }).click();
  const question = page.getByRole("group", { name: "Question 1" });
  await question.getByRole("textbox", { name: "Question", exact: true }).fill("What are you into?");
  await question.getByRole("textbox", { name: "Answer", exact: true }).fill("Memes");
  await question.getByRole("combobox", { name: "Channels it adds" }).click();
  await page.getByRole("option", { name: "# memes" }).click();
  await page.keyboard.press("Escape");

  await enable.click();
  await expect(enable).toBeChecked();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Onboarding saved")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Onboarding enabled")).toBeChecked();
  await expect(page.getByRole("region", { name: "Default channels" }).getByRole("checkbox", { name: "help", exact: true })).toBeChecked();
  await expect(page.getByRole("group", { name: "Question 1" }).getByRole("textbox", { name: "Question", exact: true })).toHaveValue("What are you into?");
});

test("an owner saving onboarding with an empty answer is told what to fix, at the answer", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/onboarding`);
  await page.getByRole("button", { name: "Add question" }).click();
  const first = page.getByRole("group", { name: "Question 1" });
  await first.getByRole("textbox", { name: "Question", exact: true }).fill("What brings you here?");
  await first.getByRole("textbox", { name: "Answer", exact: true }).fill("Games");
  // The second question's answer, lower on the page, stays empty.
  await page.getByRole("button", { name: "Add question" }).click();
  const second = page.getByRole("group", { name: "Question 2" });
  await second.getByRole("textbox", { name: "Question", exact: true }).fill("Which region?");
  await page.evaluate(() => window.scrollTo({ top: 0 }));

  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Onboarding not saved" })).toContainText("Each answer needs a title.");
  const answer = second.getByRole("textbox", { name: "Answer", exact: true });
  await expect(answer).toBeFocused();
  await expect(answer).toBeInViewport();
  await expect(answer).toHaveAttribute("aria-invalid", "true");
  await expect(second.getByText("Each answer needs a title.")).toBeVisible();

  await answer.fill("Europe");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Onboarding saved")).toBeVisible();
});
