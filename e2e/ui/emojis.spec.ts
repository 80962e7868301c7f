import { PermissionFlagsBits as P } from "discord-api-types/v10";
import sharp from "sharp";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createGuildEmoji } from "~/server/emojis/emoji.service.ts";
import { DEFAULT_EVERYONE_PERMISSIONS } from "~/server/permissions/permissions.ts";
import { modifyRole } from "~/server/roles/role.service.ts";
import { clickUntilShown, expect, signIn, test } from "../fixtures.ts";
import { e2eDb, seedMemberWithRoles } from "../seed.ts";

/** A small picture, as someone would upload: a yellow face. */
function smiley(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128"><circle cx="64" cy="64" r="60" fill="#f7c948"/><circle cx="44" cy="52" r="8"/><circle cx="84" cy="52" r="8"/><path d="M36 80 q28 28 56 0" stroke="#000" stroke-width="8" fill="none"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

test("an owner uploads an emoji, renames it, deletes it after confirming, and uploads a sticker", async ({ page, signedIn }) => {
  const png = await smiley();
  await page.goto(`/guilds/${signedIn.guild.id}`);
  await page.getByRole("navigation", { name: "Guild sections" }).getByRole("link", { name: "Emoji & Stickers" }).click();
  await expect(page.getByRole("heading", { name: "Emoji & Stickers" })).toBeVisible();
  const emojiSlots = page.getByRole("group", { name: "Emoji slots" });
  await expect(emojiSlots).toContainText("0 of 50 static");
  await expect(emojiSlots).toContainText("0 of 50 animated");
  await expect(page.getByText("No emojis yet")).toBeVisible();

  // The name comes from the file; the schema the service uses checks it as it is typed.
  const upload = page.getByRole("dialog", { name: "Upload emoji" });
  await clickUntilShown(page.getByRole("button", { name: "Upload emoji" }), upload);
  await upload.getByLabel("Upload image").setInputFiles({ name: "party-parrot.png", mimeType: "image/png", buffer: png });
  await expect(upload.getByRole("img", { name: "Image preview" })).toBeVisible();
  const name = upload.getByRole("textbox", { name: "Name" });
  await expect(name).toHaveValue("party_parrot");
  await name.fill("party parrot!");
  await expect(upload.getByText("Name can have only letters, numbers and underscores.")).toBeVisible();
  await name.fill("party_parrot");
  await expect(upload.getByText("Name can have only letters, numbers and underscores.")).toBeHidden();
  await upload.getByRole("button", { name: "Upload emoji" }).click();
  await expect(upload).toBeHidden();
  const emojis = page.getByRole("table", { name: "Emojis" });
  await expect(emojis.getByRole("row", { name: /:party_parrot:/ })).toContainText("Everyone");
  await expect(emojis.getByRole("row", { name: /:party_parrot:/ })).toContainText("E2E Owner");
  await expect(emojiSlots).toContainText("1 of 50 static");

  const edit = page.getByRole("dialog", { name: "Edit :party_parrot:" });
  await clickUntilShown(page.getByRole("button", { name: "Edit :party_parrot:" }), edit);
  await edit.getByRole("textbox", { name: "Name" }).fill("dancing_parrot");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(edit).toBeHidden();
  await expect(emojis.getByRole("row", { name: /:dancing_parrot:/ })).toBeVisible();

  await page.getByRole("button", { name: "Delete :dancing_parrot:" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete emoji" });
  await expect(confirm).toContainText(":dancing_parrot:");
  await confirm.getByRole("button", { name: "Delete emoji" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText("No emojis yet")).toBeVisible();
  await expect(emojiSlots).toContainText("0 of 50 static");

  await page.getByRole("tab", { name: "Stickers" }).click();
  const stickerSlots = page.getByRole("group", { name: "Sticker slots" });
  await expect(stickerSlots).toContainText("0 of 5");
  const sticker = page.getByRole("dialog", { name: "Upload sticker" });
  await clickUntilShown(page.getByRole("button", { name: "Upload sticker" }), sticker);
  await sticker.getByLabel("Upload file").setInputFiles({ name: "Thumbs up.png", mimeType: "image/png", buffer: png });
  await expect(sticker.getByRole("textbox", { name: "Name" })).toHaveValue("Thumbs up");
  await sticker.getByRole("textbox", { name: "Tags" }).fill("👍");
  await sticker.getByRole("textbox", { name: "Description" }).fill("For a job well done");
  await sticker.getByRole("button", { name: "Upload sticker" }).click();
  await expect(sticker).toBeHidden();
  const row = page.getByRole("table", { name: "Stickers" }).getByRole("row", { name: /Thumbs up/ });
  await expect(row).toContainText("For a job well done");
  await expect(row).toContainText("👍");
  await expect(stickerSlots).toContainText("1 of 5");
});

test("a member who may not create expressions sees why, instead of the upload, and why they may not edit the owner's", async ({ page, owner }) => {
  const ctx = { db: e2eDb(), actor: dashboardActor(owner.user.id) };
  const permissions = String(DEFAULT_EVERYONE_PERMISSIONS & ~P.CreateGuildExpressions);
  await modifyRole(ctx, { guildId: owner.guild.id, roleId: owner.guild.id, body: { permissions } });
  const image = `data:image/png;base64,${(await smiley()).toString("base64")}`;
  await createGuildEmoji(ctx, { guildId: owner.guild.id, body: { name: "wave", image } });
  const member = await seedMemberWithRoles(owner, "plain_member", []);
  await signIn(page, member);

  await page.goto(`/guilds/${owner.guild.id}/emojis`);
  const refusal = page.getByRole("alert").filter({ hasText: "You can't upload here" });
  await expect(refusal).toContainText("Needs Create expressions.");
  await expect(page.getByRole("button", { name: "Upload emoji" })).toBeHidden();
  const row = page.getByRole("table", { name: "Emojis" }).getByRole("row", { name: /:wave:/ });
  await expect(row.getByRole("button", { name: "Edit :wave: (Needs Manage expressions (or Create expressions, for ones you uploaded).)" })).toBeDisabled();
  // Whoever may not add or manage expressions is not shown who uploaded them.
  await expect(row).not.toContainText("E2E Owner");
});
