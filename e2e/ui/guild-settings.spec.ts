import { PermissionFlagsBits } from "discord-api-types/v10";
import { checkOnLoad, expect, signIn, test } from "../fixtures.ts";
import { seedMemberWithRoles, seedRolesAt, seedVanityCode, uniqueName } from "../seed.ts";

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

test("renames the guild and the new name is there after a reload", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const name = uniqueName("Renamed");
  await page.getByLabel("Guild name").fill(name);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("All changes saved.");

  await page.reload();
  await expect(page.getByLabel("Guild name")).toHaveValue(name);
  await expect(page.getByRole("navigation", { name: "Guild sections" })).toBeVisible();
  await page.getByRole("link", { name: "All guilds" }).click();
  await expect(page.getByRole("link", { name })).toBeVisible();
});

test("a one-character name is refused inline and not saved", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const nameInput = page.getByLabel("Guild name");
  await nameInput.fill("x");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(nameInput).toHaveAttribute("aria-invalid", "true");
  await expect(nameInput).toBeFocused();
  await expect(page.getByText("Name needs at least 2 characters.").first()).toBeVisible();
  await expect(page.getByText("Settings not saved")).toBeVisible();

  await page.reload();
  await expect(page.getByLabel("Guild name")).toHaveValue(signedIn.guild.name);
});

test("a rule only the server knows is shown where it applies", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  // Community needs rules and updates channels, which a new guild doesn't have.
  await checkOnLoad(page.getByRole("switch", { name: "Community" }));
  await page.getByRole("button", { name: "Save changes" }).click();
  const features = page.getByRole("region", { name: "Features" });
  await expect(features.getByRole("alert")).toContainText("rules channel");
  await expect(page.getByText("Settings not saved")).toBeVisible();
});

test("the rename shows up in the audit log", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const name = uniqueName("Audited");
  await page.getByLabel("Guild name").fill(name);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();

  await page.getByRole("navigation", { name: "Guild sections" }).getByRole("link", { name: "Audit log" }).click();
  const entry = page.getByRole("listitem", { name: `E2E Owner renamed the guild to ${name}` });
  await expect(entry).toBeVisible();
  await entry.getByRole("button", { name: "Show details" }).click();
  await expect(entry).toContainText(signedIn.guild.name);
});

test("the owner deletes the guild after typing its name", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  await page.getByRole("button", { name: "Delete guild" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete guild" });
  const confirm = dialog.getByRole("button", { name: "Delete guild" });
  await dialog.getByLabel("Type the guild name to confirm").fill("not the name");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel("Type the guild name to confirm").fill(signedIn.guild.name);
  await confirm.click();

  await expect(page.getByRole("heading", { name: "Your guilds" })).toBeVisible();
  await expect(page.getByText("No guilds yet")).toBeVisible();
  await page.goto(`/guilds/${signedIn.guild.id}`);
  await expect(page.getByRole("heading", { name: "Nothing here" })).toBeVisible();
});

test("switches membership screening on, and it stays on after a reload", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const screening = page.getByRole("switch", { name: "Require new members to complete screening" });
  await expect(screening).not.toBeChecked();
  await screening.click();
  await expect(page.getByText("New members must complete screening.")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("switch", { name: "Require new members to complete screening" })).toBeChecked();
});

// What the demo guild's moderators can do: moderate members and messages, not manage the guild.
const MODERATION = PermissionFlagsBits.KickMembers | PermissionFlagsBits.BanMembers | PermissionFlagsBits.ModerateMembers | PermissionFlagsBits.ManageMessages;

for (const [who, permissions] of [
  ["a moderator", MODERATION],
  ["a member", 0n],
] as const) {
  test(`${who} opens Settings without an error and sees them view-only`, async ({ page, owner }) => {
    const code = `look-${Date.now().toString(36)}`;
    await seedVanityCode(owner, code);
    const [role] = await seedRolesAt(owner.guild.id, [{ name: "Crew", position: 1, permissions }]);
    const viewer = await seedMemberWithRoles(owner, "viewer", [role!.id]);
    await signIn(page, viewer);

    // The server renders the whole page, the vanity URL section included, without failing.
    const url = `/guilds/${owner.guild.id}`;
    const served = await page.request.get(url);
    expect(served.status()).toBe(200);
    const html = await served.text();
    expect(html).toContain(`/invite/${code}`);
    expect(html).not.toContain("data-dgst");

    await page.goto(url);
    await expect(page.getByText("View only")).toBeVisible();
    const vanity = page.getByRole("region", { name: "Vanity URL" });
    await expect(vanity).toContainText(`${new URL(page.url()).origin}/invite/${code}`);
    await expect(vanity.getByLabel("Vanity code")).toBeDisabled();
  });
}

test("a guild without the banner feature sees why the banner is disabled, and can still change its icon", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const profile = page.getByRole("region", { name: "Profile" });
  await expect(profile.getByText("Needs the Banner feature, which this guild doesn't have.")).toBeVisible();
  await expect(profile.getByText("Needs the Invite Splash feature, which this guild doesn't have.")).toBeVisible();
  await expect(profile.getByLabel("Upload banner")).toBeDisabled();

  await profile.getByLabel("Upload icon").setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: PNG });
  await expect(profile.getByRole("img", { name: "Icon preview" })).toBeVisible();
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Settings saved")).toBeVisible();

  await page.reload();
  await expect(page.getByRole("region", { name: "Profile" }).getByRole("img", { name: "Icon preview" })).toHaveAttribute("src", /\/icons\//);
});

test("a text file is refused as an icon at once, even named like an image", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  const profile = page.getByRole("region", { name: "Profile" });
  const upload = profile.getByLabel("Upload icon");

  await upload.setInputFiles({ name: "notes.png", mimeType: "image/png", buffer: Buffer.from("not an image at all") });
  await expect(profile.getByText("This file isn't a PNG, JPEG, GIF or WebP image. Choose an image file.")).toBeVisible();
  await expect(profile.getByRole("img", { name: "Icon preview" })).toHaveCount(0);
  await expect(page.getByRole("status")).toHaveText("All changes saved.");

  await upload.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain text") });
  await expect(profile.getByText("Use a PNG, JPEG, GIF or WebP image.")).toBeVisible();
  await expect(profile.getByRole("img", { name: "Icon preview" })).toHaveCount(0);
});

test("the channel fields' clear buttons say what they clear", async ({ page, signedIn }) => {
  await page.goto(`/guilds/${signedIn.guild.id}`);
  // A new guild posts its system messages in #general.
  const channels = page.getByRole("region", { name: "Channels" });
  await channels.getByRole("button", { name: "Clear system messages channel" }).click();
  await expect(channels.getByRole("combobox", { name: "System messages channel" })).toHaveValue("");
});
