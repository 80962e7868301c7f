import type { Locator } from "@playwright/test";
import { checkOnLoad, expect, test } from "../fixtures.ts";

/** The image's decoded size once loaded: what widget.png really answered. */
function naturalSize(image: Locator) {
  return image.evaluate((element: HTMLImageElement) => (element.complete && element.naturalWidth > 0 ? [element.naturalWidth, element.naturalHeight] : null));
}

test("enables the widget with an invite channel, then a chosen style changes the highlighted image and the embed codes", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}/widget`);
  await expect(page.getByRole("heading", { name: "Widget", level: 1 })).toBeVisible();
  await expect(page.getByText("The widget is off")).toBeVisible();
  await expect(page.getByLabel("widget.json answer")).toContainText("Widget Disabled");

  await checkOnLoad(page.getByLabel("Enable the widget"));
  await expect(page.getByText("The widget is on: anyone can load its images and JSON.")).toBeVisible();
  await expect(page.getByText("The widget is off")).toBeHidden();
  const shield = page.getByRole("img", { name: "Shield widget" });
  await expect.poll(() => naturalSize(shield)).toEqual([119, 20]);
  await expect(page.getByLabel("widget.json answer")).toContainText(`"name": "${signedIn.guild.name}"`);
  await expect(page.getByLabel("widget.json answer")).toContainText(`"instant_invite": null`);

  await page.getByRole("combobox", { name: "Invite channel" }).click();
  await page.getByRole("option", { name: "#general", exact: true }).click();
  await expect(page.getByText("The widget invites people to #general.")).toBeVisible();
  await expect(page.getByLabel("widget.json answer")).toContainText(/"instant_invite": "http[^"]+\/invite\/[A-Za-z0-9]{10}"/);

  const html = page.getByLabel("HTML code");
  await expect(page.getByRole("radio", { name: "Shield" })).toBeChecked();
  await expect(html).toContainText("widget.png?style=shield");
  await page.getByRole("radio", { name: "Banner 3" }).click();
  await expect(page.getByRole("radio", { name: "Banner 3" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Shield" })).not.toBeChecked();
  await expect(html).toContainText("widget.png?style=banner3");
  await expect(html).toContainText('width="320" height="140"');
  await expect(html).toContainText("/invite/");
  await expect(page.getByLabel("Markdown code")).toContainText(`[![${signedIn.guild.name}](`);
  await expect.poll(() => naturalSize(page.getByRole("img", { name: "Banner 3 widget" }))).toEqual([320, 140]);

  await page.reload();
  await expect(page.getByLabel("Enable the widget")).toBeChecked();
  await expect(page.getByRole("combobox", { name: "Invite channel" })).toHaveValue("#general");
});
