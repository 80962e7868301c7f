import { ChannelType, GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot, writeGuildState } from "~/test/factories.ts";
import { memberKit } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

// The channels page shows, per channel, why the viewer may not edit, move or delete it, or
// add a channel to a category. Within a channel its overwrites decide, as the service does.

const app = useTestApp();
const kit = memberKit(app);
const NEEDS_HERE = "Needs Manage channels in this channel.";

type Overwrite = { id: string; type: 0 | 1; allow?: string; deny?: string };

/** A guild whose member holds one role with `guildPermissions`, with channels whose overwrites name that role. */
async function guildWithBuilder(guildPermissions: bigint, overwrites: (roleId: string) => Record<string, { type?: number; overwrites: Overwrite[] }>) {
  const { guild, api: asOwner, text } = await kit.setupWithChannels();
  const role = await kit.addRole(guild.id, 1, { name: "Builders", permissions: guildPermissions });
  const ids: Record<string, string> = { general: text.id };
  for (const [name, channel] of Object.entries(overwrites(role.id))) {
    const created = await asOwner.post<{ id: string }>(`/guilds/${guild.id}/channels`, { name, type: channel.type, permission_overwrites: channel.overwrites });
    expect(created.status).toBe(200);
    ids[name] = created.body.id;
  }
  const builder = await makeBot(app.db);
  await addMember(app.db, guild.id, builder.user.id, [role.id]);
  return { guild, ids, viewer: createCaller({ db: app.db, userId: builder.user.id }), api: app.as(bot(builder.token)) };
}

/** Every action the page offers, tried over REST as the same user: refused exactly where a reason is shown. */
async function expectReasonsMatchRest(setup: Awaited<ReturnType<typeof guildWithBuilder>>) {
  const { guild, viewer, api } = setup;
  const { create, rows } = await viewer.channel.rows({ guildId: guild.id });
  const refused = (status: number) => status >= 400;
  expect(refused((await api.post(`/guilds/${guild.id}/channels`, { name: "top-level" })).status), "create").toBe(create !== null);
  for (const { channel, denials } of rows) {
    const name = channel.name;
    expect(refused((await api.patch(`/channels/${channel.id}`, { name })).status), `edit ${name}`).toBe(denials.edit !== null);
    const stay = [{ id: channel.id, position: channel.position }];
    expect(refused((await api.patch(`/guilds/${guild.id}/channels`, stay)).status), `move ${name}`).toBe(denials.move !== null);
    if (channel.type === ChannelType.GuildCategory) {
      const inside = await api.post(`/guilds/${guild.id}/channels`, { name: "inside", parent_id: channel.id });
      expect(refused(inside.status), `create in ${name}`).toBe(denials.createInside !== null);
    } else expect(denials.createInside).toBeNull();
  }
  for (const { channel, denials } of rows) {
    expect(refused((await api.delete(`/channels/${channel.id}`)).status), `delete ${channel.name}`).toBe(denials.delete !== null);
  }
  return rows;
}

describe("channel.rows", () => {
  it("lets an overwrite that grants MANAGE_CHANNELS open one channel or category to a member without it guild-wide", async () => {
    const setup = await guildWithBuilder(0n, (roleId) => ({
      ops: { overwrites: [{ id: roleId, type: 0, allow: String(P.ManageChannels) }] },
      projects: { type: ChannelType.GuildCategory, overwrites: [{ id: roleId, type: 0, allow: String(P.ManageChannels) }] },
    }));
    const rows = await expectReasonsMatchRest(setup);
    const byName = new Map(rows.map((row) => [row.channel.name, row.denials]));
    expect(byName.get("ops")).toEqual({ edit: null, delete: null, move: "Needs Manage channels.", createInside: null });
    expect(byName.get("projects")).toMatchObject({ edit: null, createInside: null });
    expect(byName.get("general")).toMatchObject({ edit: NEEDS_HERE, delete: NEEDS_HERE });
  });

  it("lets an overwrite that denies MANAGE_CHANNELS close one channel to a member who has it guild-wide", async () => {
    const setup = await guildWithBuilder(P.ManageChannels, (roleId) => ({
      archive: { overwrites: [{ id: roleId, type: 0, deny: String(P.ManageChannels) }] },
      closed: { type: ChannelType.GuildCategory, overwrites: [{ id: roleId, type: 0, deny: String(P.ManageChannels) }] },
    }));
    const rows = await expectReasonsMatchRest(setup);
    const byName = new Map(rows.map((row) => [row.channel.name, row.denials]));
    expect(byName.get("archive")).toEqual({ edit: NEEDS_HERE, delete: NEEDS_HERE, move: null, createInside: null });
    expect(byName.get("closed")).toMatchObject({ edit: NEEDS_HERE, createInside: "Needs Manage channels in this category." });
    expect(byName.get("general")).toMatchObject({ edit: null, delete: null });
  });

  it("keeps a community guild's rules channel from being deleted, and says so", async () => {
    const { owner, guild, text } = await kit.setupWithChannels();
    await kit.setFeatures(guild.id, [GuildFeature.Community]);
    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { rulesChannelId: text.id } }));
    const { rows } = await createCaller({ db: app.db, userId: owner.user.id }).channel.rows({ guildId: guild.id });
    expect(rows.find((row) => row.channel.id === text.id)?.denials.delete).toBe("A community guild needs its rules and updates channels.");
    expect((await app.as(bot(owner.token)).delete(`/channels/${text.id}`)).status).toBe(400);
  });
});
