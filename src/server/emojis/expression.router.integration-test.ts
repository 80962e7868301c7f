import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeGuild, makeUser } from "~/test/factories.ts";
import { PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

// The Emoji & Stickers page's reads and writes: the services REST calls, with each refusal's
// reason and the tier's slots from the rules those services enforce.

const app = useTestApp();

async function guildWithMember() {
  const owner = await makeUser(app.db);
  const guild = await makeGuild(app.db, dashboardActor(owner.user.id));
  const member = await makeUser(app.db);
  await addMember(app.db, guild.id, member.user.id);
  return { owner, guild, member, asOwner: createCaller({ db: app.db, userId: owner.user.id }), asMember: createCaller({ db: app.db, userId: member.user.id }) };
}

describe("emoji.rows", () => {
  it("counts the slots used of each kind and says why a member may not edit another's emoji", async () => {
    const { guild, owner, asOwner, asMember } = await guildWithMember();
    const uploaded = await asOwner.emoji.create({ guildId: guild.id, body: { name: "party_parrot", image: PNG } });

    const seenByOwner = await asOwner.emoji.rows({ guildId: guild.id });
    expect(seenByOwner.create).toBeNull();
    expect(seenByOwner.slots).toEqual({ static: { used: 1, available: 50, full: null }, animated: { used: 0, available: 50, full: null } });
    expect(seenByOwner.rows).toEqual([
      { emoji: expect.objectContaining({ id: uploaded.id, user: expect.objectContaining({ id: owner.user.id }) }), denial: null },
    ]);

    // @everyone may create expressions by default, so the member may upload, but not edit the owner's.
    const seenByMember = await asMember.emoji.rows({ guildId: guild.id });
    expect(seenByMember.create).toBeNull();
    expect(seenByMember.rows[0]?.denial).toBe("Needs Manage expressions (or Create expressions, for ones you uploaded).");
    await expect(asMember.emoji.delete({ guildId: guild.id, emojiId: uploaded.id })).rejects.toMatchObject({ code: "FORBIDDEN" });

    await asOwner.role.modify({ guildId: guild.id, roleId: guild.id, body: { permissions: String(P.ViewChannel) } });
    const withoutCreate = await asMember.emoji.rows({ guildId: guild.id });
    expect(withoutCreate.create).toBe("Needs Create expressions.");
    // Whoever may not add or manage expressions is not shown who uploaded them.
    expect(withoutCreate.rows[0]?.emoji.user).toBeUndefined();
  });

  it("renames an emoji and limits it to roles, which the rows then carry", async () => {
    const { guild, asOwner } = await guildWithMember();
    const role = await asOwner.role.create({ guildId: guild.id, body: { name: "Regulars" } });
    const { id } = await asOwner.emoji.create({ guildId: guild.id, body: { name: "wave", image: PNG } });
    await asOwner.emoji.modify({ guildId: guild.id, emojiId: id, body: { name: "big_wave", roles: [role.id] } });
    const { rows, roles } = await asOwner.emoji.rows({ guildId: guild.id });
    expect(rows[0]?.emoji).toMatchObject({ name: "big_wave", roles: [role.id] });
    expect(roles).toEqual([{ id: role.id, name: "Regulars", color: 0 }]);
  });
});

describe("sticker.create", () => {
  it("takes the file as a data URI, as the file a REST form carries, and refuses what is not a PNG, APNG or GIF", async () => {
    const { guild, asOwner } = await guildWithMember();
    const sticker = await asOwner.sticker.create({ guildId: guild.id, body: { name: "Thumbs up", tags: "👍", file: PNG } });
    expect(sticker).toMatchObject({ name: "Thumbs up", tags: "👍", format_type: 1 });
    const { slots, rows } = await asOwner.sticker.rows({ guildId: guild.id });
    expect(slots).toEqual({ used: 1, available: 5, full: null });
    expect(rows.map((row) => row.sticker.id)).toEqual([sticker.id]);

    const jpeg = `data:image/png;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0]).toString("base64")}`;
    await expect(asOwner.sticker.create({ guildId: guild.id, body: { name: "Not a sticker", tags: "x", file: jpeg } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Invalid file uploaded",
    });
  });
});
