import { GuildFeature, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createCaller } from "~/server/trpc/root.ts";
import { memberKit, PNG } from "~/test/member-kit.ts";
import { useTestApp } from "~/test/test-app.ts";
import { GUILD_IMAGE_FIELDS } from "./guild-section-rules.ts";
import { MUTABLE_FEATURES } from "./guild.schema.ts";

// Each guild-wide dashboard section shows why the viewer may not use it. Those reasons come
// from the rules the services enforce, so a reason is shown exactly where REST refuses.

const app = useTestApp();
const kit = memberKit(app);

/** A guild whose @everyone grants nothing, with a member per permission set and the owner. */
async function guildWithViewers() {
  const { owner, guild, api: asOwner } = await kit.setupWithChannels();
  expect((await asOwner.patch(`/guilds/${guild.id}/roles/${guild.id}`, { permissions: "0" })).status).toBe(200);
  const member = (permissions: bigint, position: number) => kit.addBotWithRole(guild.id, permissions, position);
  const viewers = {
    nothing: await kit.addBot(guild.id),
    manageGuild: await member(P.ManageGuild, 1),
    viewAuditLog: await member(P.ViewAuditLog, 2),
    administrator: await member(P.Administrator, 3),
    owner: { ...owner, api: asOwner },
  };
  return { guild, asOwner, viewers };
}

describe("guild.sectionDenials", () => {
  it("names the missing permission in the style of every other denial", async () => {
    const { guild, viewers } = await guildWithViewers();
    const denials = (id: string) => createCaller({ db: app.db, userId: id }).guild.sectionDenials({ guildId: guild.id });
    const nothing = await denials(viewers.nothing.user.id);
    expect(nothing).toMatchObject({
      settings: "Needs Manage guild.",
      onboarding: "Needs Manage guild and Manage roles.",
      auditLog: "Needs View audit log.",
      deleteGuild: "Only the owner can delete this guild.",
      invites: { list: "Needs Manage guild or View audit log.", create: "Needs Create invites in any channel." },
    });
    const manager = await denials(viewers.manageGuild.user.id);
    expect(manager.settings).toBeNull();
    expect(manager.features).toEqual({
      [GuildFeature.Community]: "Needs Administrator.",
      [GuildFeature.Discoverable]: "Needs Administrator.",
      [GuildFeature.InvitesDisabled]: null,
      [GuildFeature.RaidAlertsDisabled]: null,
      [GuildFeature.PruneRequiresAdmin]: "Only the owner can change this.",
    });
    expect(manager.onboarding).toBe("Needs Manage roles.");
  });

  it("shows a reason exactly where REST refuses, for every section and viewer", async () => {
    const { guild, asOwner, viewers } = await guildWithViewers();
    const channels = (await asOwner.get<{ id: string; type: number }[]>(`/guilds/${guild.id}/channels`)).body;
    const text = channels.find((channel) => channel.type === 0)!;
    // MISSING_PERMISSIONS is 403; a request the rules allow may still be invalid (COMMUNITY's requirements: 400).
    const forbidden = (response: { status: number }) => response.status === 403;

    for (const [who, viewer] of Object.entries(viewers)) {
      const d = await createCaller({ db: app.db, userId: viewer.user.id }).guild.sectionDenials({ guildId: guild.id });
      const { api } = viewer;
      const check = async (what: string, denial: string | null, request: Promise<{ status: number }>) =>
        expect(forbidden(await request), `${who}: ${what} (${denial})`).toBe(denial !== null);

      await check("settings", d.settings, api.patch(`/guilds/${guild.id}`, {}));
      for (const feature of Object.keys(MUTABLE_FEATURES) as (keyof typeof MUTABLE_FEATURES)[]) {
        const response = await api.patch(`/guilds/${guild.id}`, { features: [feature] });
        await check(`feature ${feature}`, d.features[feature], Promise.resolve(response));
        if (response.status === 200) expect((await asOwner.patch(`/guilds/${guild.id}`, { features: [] })).status).toBe(200);
      }
      await check("widget", d.widget, api.get(`/guilds/${guild.id}/widget`));
      await check("welcome screen read", d.welcomeScreen.read, api.get(`/guilds/${guild.id}/welcome-screen`));
      await check("welcome screen edit", d.welcomeScreen.edit, api.patch(`/guilds/${guild.id}/welcome-screen`, {}));
      await check("onboarding", d.onboarding, api.put(`/guilds/${guild.id}/onboarding`, {}));
      await check("audit log", d.auditLog, api.get(`/guilds/${guild.id}/audit-logs`));
      await check("integrations", d.integrations, api.get(`/guilds/${guild.id}/integrations`));
      await check("safety", d.safety, api.put(`/guilds/${guild.id}/incident-actions`, { invites_disabled_until: null }));
      await check("invite list", d.invites.list, api.get(`/guilds/${guild.id}/invites`));
      await check("invite create", d.invites.create, api.post(`/channels/${text.id}/invites`, {}));
      const { code } = (await asOwner.post<{ code: string }>(`/channels/${text.id}/invites`, { unique: true })).body;
      await check("invite revoke", d.invites.revoke[text.id] ?? null, api.delete(`/invites/${code}`));
      if (who !== "owner") await check("delete guild", d.deleteGuild, api.delete(`/guilds/${guild.id}`));
    }
    // The owner may delete the guild; done last, as it ends the guild.
    expect(forbidden(await asOwner.delete(`/guilds/${guild.id}`))).toBe(false);
  });

  it("lets members read the welcome screen while it is shown", async () => {
    const { guild, viewers } = await guildWithViewers();
    await kit.setFeatures(guild.id, [GuildFeature.WelcomeScreenEnabled]);
    const d = await createCaller({ db: app.db, userId: viewers.nothing.user.id }).guild.sectionDenials({ guildId: guild.id });
    expect(d.welcomeScreen).toEqual({ read: null, edit: "Needs Manage guild." });
    expect((await viewers.nothing.api.get(`/guilds/${guild.id}/welcome-screen`)).status).toBe(200);
  });

  it("says why an image can't be set exactly where PATCH refuses it, and the refusal names the same reason", async () => {
    const { guild, asOwner, viewers } = await guildWithViewers();
    const imageDenials = async () => (await createCaller({ db: app.db, userId: viewers.owner.user.id }).guild.sectionDenials({ guildId: guild.id })).images;
    const before = await imageDenials();
    expect(before).toEqual({
      icon: null,
      banner: "Needs the Banner feature, which this guild doesn't have.",
      splash: "Needs the Invite Splash feature, which this guild doesn't have.",
      discovery_splash: "Needs the Discoverable feature, which this guild doesn't have.",
    });
    for (const field of GUILD_IMAGE_FIELDS) {
      const response = await asOwner.patch<{ errors?: Record<string, { _errors: { message: string }[] }> }>(`/guilds/${guild.id}`, { [field]: PNG });
      expect(response.status, field).toBe(before[field] === null ? 200 : 400);
      if (before[field] !== null) expect(response.body.errors?.[field]?._errors[0]?.message).toBe(before[field]);
    }

    await kit.setFeatures(guild.id, [GuildFeature.Banner]);
    expect((await imageDenials()).banner).toBeNull();
    expect((await asOwner.patch(`/guilds/${guild.id}`, { banner: PNG })).status).toBe(200);
  });
});
