import { AuditLogEvent, ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createCaller } from "~/server/trpc/root.ts";
import { addMember, makeBot, makeGuild, makeUser, writeGuildState } from "~/test/factories.ts";
import { PNG } from "~/test/member-kit.ts";
import { bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
// 1x1 GIF with two frames (animated).
const ANIMATED_GIF = "data:image/gif;base64,R0lGODlhAQABAIAAAP///wAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAIfkEAAAAAAAsAAAAAAEAAQAAAgJEAQA7";

/** How a test channel treats @everyone: no overwrite, SEND_MESSAGES denied, VIEW_CHANNEL denied, SEND_MESSAGES allowed. */
type Kind = "open" | "muted" | "hidden" | "allowed";
const OVERWRITES: Record<Kind, { allow?: bigint; deny?: bigint }> = {
  open: {},
  muted: { deny: P.SendMessages },
  hidden: { deny: P.ViewChannel },
  allowed: { allow: P.SendMessages },
};

async function setup() {
  const owner = await makeBot(app.db);
  const guild = await makeGuild(app.db, owner.actor);
  const api = app.as(bot(owner.token));
  /** New text channels of the guild, `count` of each kind. */
  const channels = async (counts: Partial<Record<Kind, number>>): Promise<string[]> => {
    const ids: string[] = [];
    for (const [kind, count] of Object.entries(counts) as [Kind, number][]) {
      for (let i = 0; i < count; i++) {
        const { allow = 0n, deny = 0n } = OVERWRITES[kind];
        const overwrites = allow || deny ? [{ id: guild.id, type: 0, allow: String(allow), deny: String(deny) }] : [];
        const created = await api.post(`/guilds/${guild.id}/channels`, { name: `${kind}-${i}`, permission_overwrites: overwrites });
        expect(created.status).toBe(200);
        ids.push(created.body.id as string);
      }
    }
    return ids;
  };
  return { owner, guild, api, channels, url: `/guilds/${guild.id}/onboarding` };
}

/** A bot member holding a role with `permissions` (0n: @everyone's only). */
async function memberWith(api: ReturnType<typeof app.as>, guildId: string, permissions: bigint) {
  const member = await makeBot(app.db);
  const roles = [];
  if (permissions) roles.push((await api.post(`/guilds/${guildId}/roles`, { name: "Helpers", permissions: String(permissions) })).body.id as string);
  await addMember(app.db, guildId, member.user.id, roles);
  return { member, api: app.as(bot(member.token)), roleIds: roles };
}

const option = (title: string, extra: Record<string, unknown> = {}) => ({ title, ...extra });
const prompt = (id: string, title: string, options: unknown[], extra: Record<string, unknown> = {}) => ({ id, title, options, ...extra });

describe("GET /guilds/{guild.id}/onboarding", () => {
  it("answers any member the onboarding object, and outsiders 50001", async () => {
    const { guild, api, url } = await setup();
    const empty = { guild_id: guild.id, prompts: [], default_channel_ids: [], enabled: false, mode: 0 };
    expect((await api.get(url)).body).toEqual(empty);
    const plain = await memberWith(api, guild.id, 0n);
    expect((await plain.api.get(url)).body).toEqual(empty);
    const outsider = await setup();
    expect((await outsider.api.get(url)).body.code).toBe(50001);
  });
});

describe("PUT /guilds/{guild.id}/onboarding", () => {
  it("needs both MANAGE_GUILD and MANAGE_ROLES", async () => {
    const { guild, api, url } = await setup();
    for (const permissions of [P.ManageGuild, P.ManageRoles]) {
      const refused = await (await memberWith(api, guild.id, permissions)).api.put(url, { mode: 1 });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe(50013);
    }
    const manager = await memberWith(api, guild.id, P.ManageGuild | P.ManageRoles);
    const saved = await manager.api.put(url, { mode: 1 });
    expect(saved.status).toBe(200);
    expect(saved.body.mode).toBe(1);
    expect((await api.get(url)).body.mode).toBe(1);
  });

  it("keeps the ids of prompts and options it knows, gives new ones to the rest, and maps emoji fields to the emoji object", async () => {
    const { guild, api, channels, url } = await setup();
    const [chat] = await channels({ open: 1 });
    const role = (await api.post(`/guilds/${guild.id}/roles`, { name: "Gamers" })).body.id as string;
    const controller = (await api.post(`/guilds/${guild.id}/emojis`, { name: "controller", image: ANIMATED_GIF })).body.id as string;
    const first = await api.put(url, {
      prompts: [
        prompt("0", "What brings you here?", [
          // The emoji's name and animation are the guild's, whatever the option says.
          option("Games", { emoji_id: controller, emoji_name: "gamepad", emoji_animated: false, role_ids: [role], channel_ids: [chat] }),
          option("Music", { emoji_name: "🎵", description: "Share what you play" }),
          option("Lurking"),
        ]),
      ],
    });
    expect(first.status).toBe(200);
    const [saved] = first.body.prompts;
    expect(saved).toEqual({
      id: expect.stringMatching(/^\d+$/),
      type: 0,
      title: "What brings you here?",
      single_select: false,
      required: false,
      in_onboarding: true,
      options: [
        {
          id: expect.stringMatching(/^\d+$/),
          title: "Games",
          description: "",
          emoji: { id: controller, name: "controller", animated: true },
          role_ids: [role],
          channel_ids: [chat],
        },
        {
          id: expect.any(String),
          title: "Music",
          description: "Share what you play",
          emoji: { id: null, name: "🎵", animated: false },
          role_ids: [],
          channel_ids: [],
        },
        { id: expect.any(String), title: "Lurking", description: "", emoji: { id: null, name: null, animated: false }, role_ids: [], channel_ids: [] },
      ],
    });
    expect(saved.id).not.toBe("0");

    const [games, music] = saved.options;
    const second = await api.put(url, {
      prompts: [
        prompt(saved.id, "Why are you here?", [option("Games", { id: games.id }), option("Music", { id: music.id }), option("Art", { id: "123" })], {
          type: 1,
          single_select: true,
          required: true,
          in_onboarding: false,
        }),
        // The same id twice: only the first keeps it.
        prompt(saved.id, "Second", [option("Copy", { id: games.id })]),
      ],
    });
    expect(second.status).toBe(200);
    const [kept, copy] = second.body.prompts;
    expect(kept).toMatchObject({ id: saved.id, type: 1, title: "Why are you here?", single_select: true, required: true, in_onboarding: false });
    expect(kept.options.map((o: { id: string }) => o.id).slice(0, 2)).toEqual([games.id, music.id]);
    expect(kept.options[2].id).not.toBe("123");
    expect(copy.id).not.toBe(saved.id);
    expect(copy.options[0].id).not.toBe(games.id);
    expect((await api.get(url)).body).toEqual(second.body);
  });

  it("refuses other guilds' channels and roles, and categories, at the exact path", async () => {
    const { guild, api, channels, url } = await setup();
    const [mine] = await channels({ open: 1 });
    const other = await setup();
    const [theirs] = await other.channels({ open: 1 });
    const theirRole = (await other.api.post(`/guilds/${other.guild.id}/roles`, { name: "Theirs" })).body.id as string;
    const category = (await api.get<{ id: string; type: number }[]>(`/guilds/${guild.id}/channels`)).body.find((c) => c.type === ChannelType.GuildCategory)!;

    const refused = await api.put(url, {
      default_channel_ids: [mine, category.id],
      prompts: [prompt("0", "Pick", [option("A"), option("B"), option("C", { channel_ids: [mine, theirs], role_ids: [theirRole] })])],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(50035);
    expect(refused.body.errors).toEqual({
      default_channel_ids: { 1: { _errors: [expect.objectContaining({ code: "CHANNEL_INVALID" })] } },
      prompts: {
        0: {
          options: {
            2: {
              channel_ids: { 1: { _errors: [expect.objectContaining({ code: "CHANNEL_INVALID" })] } },
              role_ids: { 0: { _errors: [expect.objectContaining({ code: "ROLE_INVALID" })] } },
            },
          },
        },
      },
    });
    expect((await api.get(url)).body.prompts).toEqual([]);
  });

  it("refuses a custom emoji that is not one of the guild's (50035 at emoji_id), and shows a saved one as the guild has it", async () => {
    const { guild, api, url } = await setup();
    const other = await setup();
    const theirs = (await other.api.post(`/guilds/${other.guild.id}/emojis`, { name: "theirs", image: PNG })).body.id as string;
    const mine = (await api.post(`/guilds/${guild.id}/emojis`, { name: "mine", image: PNG })).body.id as string;
    const refused = await api.put(url, {
      prompts: [prompt("0", "Pick", [option("A", { emoji_id: mine }), option("B", { emoji_id: theirs }), option("C", { emoji_id: "123456789012345678" })])],
    });
    expect(refused.body.code).toBe(50035);
    expect(refused.body.errors).toEqual({
      prompts: {
        0: {
          options: {
            1: { emoji_id: { _errors: [{ code: "EMOJI_INVALID", message: "Invalid emoji" }] } },
            2: { emoji_id: { _errors: [{ code: "EMOJI_INVALID", message: "Invalid emoji" }] } },
          },
        },
      },
    });
    expect((await api.get(url)).body.prompts).toEqual([]);

    // Saved, it follows the guild's emoji: renamed with it, gone once deleted.
    const saved = await api.put(url, { prompts: [prompt("0", "Pick", [option("A", { emoji_id: mine })])] });
    expect(saved.body.prompts[0].options[0].emoji).toEqual({ id: mine, name: "mine", animated: false });
    await api.patch(`/guilds/${guild.id}/emojis/${mine}`, { name: "renamed" });
    expect((await api.get(url)).body.prompts[0].options[0].emoji).toEqual({ id: mine, name: "renamed", animated: false });
    await api.delete(`/guilds/${guild.id}/emojis/${mine}`);
    expect((await api.get(url)).body.prompts[0].options[0].emoji).toEqual({ id: null, name: null, animated: false });
  });

  it("lets a manager hand out only roles below their own, never @everyone, and keeps roles granted before", async () => {
    const { guild, api, url } = await setup();
    const high = (await api.post(`/guilds/${guild.id}/roles`, { name: "Admins" })).body.id as string;
    // New roles start at the bottom: Members, then the manager's role, then Admins.
    const manager = await memberWith(api, guild.id, P.ManageGuild | P.ManageRoles);
    const low = (await api.post(`/guilds/${guild.id}/roles`, { name: "Members" })).body.id as string;

    const refused = await manager.api.put(url, { prompts: [prompt("0", "Roles", [option("Up", { role_ids: [low, high, guild.id] })])] });
    expect(refused.body.errors.prompts[0].options[0].role_ids).toEqual({
      1: { _errors: [{ code: "ROLE_INVALID", message: "This role is not below your highest role." }] },
      2: { _errors: [{ code: "ROLE_INVALID", message: "Everyone has the @everyone role." }] },
    });
    // The owner grants the high role; the manager may then edit the prompt without losing it.
    const byOwner = await api.put(url, { prompts: [prompt("0", "Roles", [option("Up", { role_ids: [high] })])] });
    const saved = byOwner.body.prompts[0];
    const edited = await manager.api.put(url, { prompts: [prompt(saved.id, "Roles!", [option("Up", { id: saved.options[0].id, role_ids: [high, low] })])] });
    expect(edited.status).toBe(200);
    expect(edited.body.prompts[0].options[0].role_ids).toEqual([high, low]);
  });

  it("validates the platform's limits", async () => {
    const { api, url } = await setup();
    const tooMany = await api.put(url, { prompts: Array.from({ length: 16 }, (_, i) => prompt(String(i), `P${i}`, [option("A")])) });
    expect(tooMany.body.errors.prompts._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    const bad = await api.put(url, {
      mode: 2,
      default_channel_ids: ["1", "1"],
      prompts: [prompt("1", "", []), prompt("2", "Ok", [option("x".repeat(51))])],
    });
    expect(bad.body.code).toBe(50035);
    expect(bad.body.errors.mode._errors[0].code).toBe("BASE_TYPE_CHOICES");
    expect(bad.body.errors.default_channel_ids[1]._errors[0].code).toBe("BASE_TYPE_DUPLICATE");
    expect(bad.body.errors.prompts[0].title._errors[0].code).toBe("BASE_TYPE_BAD_LENGTH");
    expect(bad.body.errors.prompts[0].options._errors[0].code).toBe("BASE_TYPE_MIN_LENGTH");
    expect(bad.body.errors.prompts[1].options[0].title._errors[0].code).toBe("BASE_TYPE_BAD_LENGTH");
  });
});

describe("the onboarding requirement (7 channels, 5 that everyone can send messages in)", () => {
  type RuleCase = {
    name: string;
    mode: 0 | 1;
    defaults: Partial<Record<Kind, number>>;
    /** Channels of one option of a question. */
    optionChannels?: Partial<Record<Kind, number>>;
    inOnboarding?: boolean;
    /** @everyone loses SEND_MESSAGES at the guild level (channels may allow it back). */
    everyoneCannotSend?: boolean;
    /** null: enabling succeeds; otherwise the 350000 message's shortfall. */
    shortfall: string | null;
  };
  const CASES: RuleCase[] = [
    { name: "default mode: 7 open default channels", mode: 0, defaults: { open: 7 }, shortfall: null },
    { name: "default mode: 6 default channels", mode: 0, defaults: { open: 6 }, shortfall: "6 of 7 default channels" },
    { name: "default mode: 7 default channels, 4 sendable", mode: 0, defaults: { open: 4, muted: 3 }, shortfall: "4 of 5 that everyone can send messages in" },
    {
      name: "default mode: channels hidden from @everyone are not sendable",
      mode: 0,
      defaults: { open: 3, hidden: 4 },
      shortfall: "3 of 5 that everyone can send messages in",
    },
    {
      name: "default mode: option channels do not count",
      mode: 0,
      defaults: { open: 4 },
      optionChannels: { open: 3 },
      shortfall: "4 of 7 default channels; 4 of 5 that everyone can send messages in",
    },
    { name: "advanced mode: a pre-join question's channels reach 7", mode: 1, defaults: { open: 4 }, optionChannels: { open: 3 }, shortfall: null },
    {
      name: "advanced mode: a question outside onboarding does not count",
      mode: 1,
      defaults: { open: 4 },
      optionChannels: { open: 3 },
      inOnboarding: false,
      shortfall: "4 of 7 channels from default channels and pre-join questions; 4 of 5 that everyone can send messages in",
    },
    {
      name: "advanced mode: muted option channels count toward 7 but not 5",
      mode: 1,
      defaults: { open: 4 },
      optionChannels: { muted: 3 },
      shortfall: "4 of 5 that everyone can send messages in",
    },
    {
      name: "@everyone without SEND_MESSAGES: only channels that allow it count",
      mode: 0,
      defaults: { allowed: 5, open: 2 },
      everyoneCannotSend: true,
      shortfall: null,
    },
    {
      name: "@everyone without SEND_MESSAGES: 4 channels allow it",
      mode: 0,
      defaults: { allowed: 4, open: 3 },
      everyoneCannotSend: true,
      shortfall: "4 of 5 that everyone can send messages in",
    },
  ];

  it.each(CASES)("$name", async ({ mode, defaults, optionChannels, inOnboarding = true, everyoneCannotSend, shortfall }) => {
    const { guild, api, channels, url } = await setup();
    if (everyoneCannotSend) {
      await writeGuildState(app.db, guild.id, (tx) => tx.role.update({ where: { id: guild.id }, data: { permissions: P.ViewChannel | P.ReadMessageHistory } }));
    }
    const defaultIds = await channels(defaults);
    const prompts = optionChannels
      ? [prompt("0", "Topics", [option("All of them", { channel_ids: await channels(optionChannels) })], { in_onboarding: inOnboarding })]
      : [];
    const response = await api.put(url, { enabled: true, mode, default_channel_ids: defaultIds, prompts });
    if (shortfall === null) {
      expect(response.status).toBe(200);
      expect(response.body.enabled).toBe(true);
    } else {
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: 350000, message: `Cannot enable onboarding, requirements are not met: ${shortfall}` });
      expect((await api.get(url)).body.enabled).toBe(false);
    }
  });

  it("refuses changes below the requirement while enabled with 350001, allows disabling, and 350000 when enabling again", async () => {
    const { api, channels, url, guild } = await setup();
    const ids = await channels({ open: 7 });
    expect((await api.put(url, { enabled: true, default_channel_ids: ids })).status).toBe(200);

    const shrink = await api.put(url, { default_channel_ids: ids.slice(1) });
    expect(shrink.body).toEqual({ code: 350001, message: "Cannot update onboarding while below requirements: 6 of 7 default channels" });
    // A channel that stops letting @everyone talk drops the count for the next change too.
    for (const id of ids.slice(0, 3)) {
      const muting = await api.patch(`/channels/${id}`, { permission_overwrites: [{ id: guild.id, type: 0, allow: "0", deny: String(P.SendMessages) }] });
      expect(muting.status).toBe(200);
    }
    const muted = await api.put(url, { mode: 1 });
    expect(muted.body).toEqual({ code: 350001, message: "Cannot update onboarding while below requirements: 4 of 5 that everyone can send messages in" });

    const disabled = await api.put(url, { enabled: false, default_channel_ids: ids.slice(1) });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, default_channel_ids: ids.slice(1) });
    const again = await api.put(url, { enabled: true });
    expect(again.body.code).toBe(350000);
    expect(again.body.message).toBe("Cannot enable onboarding, requirements are not met: 6 of 7 default channels; 4 of 5 that everyone can send messages in");
  });

  it("drops deleted channels from the onboarding, so they stop counting", async () => {
    const { api, channels, url } = await setup();
    const ids = await channels({ open: 7 });
    await api.put(url, { default_channel_ids: ids });
    await api.delete(`/channels/${ids[6]}`);
    expect((await api.get(url)).body.default_channel_ids).toEqual(ids.slice(0, 6));
    expect((await api.put(url, { enabled: true })).body.message).toContain("6 of 7 default channels");
  });
});

describe("audit log and events", () => {
  it("records Onboarding Create, Update and Prompt entries with the reason, and fires Guild Update per change", async () => {
    const { guild, api, channels, url } = await setup();
    const ids = await channels({ open: 7 });
    const headers = { "X-Audit-Log-Reason": encodeURIComponent("Setting up onboarding") };
    const first = await api.put(url, { default_channel_ids: ids, prompts: [prompt("0", "Hello", [option("Hi")])] }, { headers });
    const promptId = first.body.prompts[0].id as string;
    await api.put(url, { enabled: true, prompts: [prompt(promptId, "Hello again", [option("Hi", { id: first.body.prompts[0].options[0].id })])] });
    await api.put(url, { prompts: [] });
    // Nothing changes: no entry, no event.
    await api.put(url, { enabled: true });

    const log = (await api.get(`/guilds/${guild.id}/audit-logs`)).body.audit_log_entries as {
      action_type: number;
      target_id: string;
      reason?: string;
      changes?: { key: string; old_value?: unknown; new_value?: unknown }[];
    }[];
    const onboarding = log.filter((entry) => entry.action_type >= AuditLogEvent.OnboardingPromptCreate && entry.action_type <= AuditLogEvent.OnboardingUpdate);
    expect(onboarding.map((entry) => [entry.action_type, entry.target_id]).reverse()).toEqual([
      [AuditLogEvent.OnboardingCreate, guild.id],
      [AuditLogEvent.OnboardingPromptCreate, promptId],
      [AuditLogEvent.OnboardingUpdate, guild.id],
      [AuditLogEvent.OnboardingPromptUpdate, promptId],
      [AuditLogEvent.OnboardingPromptDelete, promptId],
    ]);
    const [deleted, updated, enabled, created, setUp] = onboarding;
    expect(setUp!.reason).toBe("Setting up onboarding");
    expect(created!.reason).toBe("Setting up onboarding");
    expect(setUp!.changes).toEqual([{ key: "default_channel_ids", old_value: [], new_value: ids }]);
    expect(enabled!.changes).toEqual([{ key: "enabled", old_value: false, new_value: true }]);
    expect(updated!.changes).toEqual([{ key: "title", old_value: "Hello", new_value: "Hello again" }]);
    expect(deleted!.changes).toContainEqual({ key: "title", old_value: "Hello again" });
    expect(await app.db.event.count({ where: { guildId: guild.id, type: "GUILD_UPDATE" } })).toBe(3);
  });
});

describe("onboarding over tRPC", () => {
  it("lists each usable channel by category with whether @everyone can chat in it, as far as the user can see", async () => {
    const owner = await makeUser(app.db);
    const guild = await makeGuild(app.db, dashboardActor(owner.user.id));
    const caller = createCaller({ db: app.db, userId: owner.user.id });
    const deny = (bits: bigint) => [{ id: guild.id, type: 0 as const, allow: "0", deny: String(bits) }];
    const category = await caller.channel.create({ guildId: guild.id, body: { name: "Lobby", type: ChannelType.GuildCategory } });
    const rules = await caller.channel.create({
      guildId: guild.id,
      body: { name: "rules", parent_id: category.id, permission_overwrites: deny(P.SendMessages) },
    });
    const staff = await caller.channel.create({
      guildId: guild.id,
      body: { name: "staff", parent_id: category.id, permission_overwrites: deny(P.ViewChannel) },
    });
    const loose = await caller.channel.create({ guildId: guild.id, body: { name: "loose" } });

    const groups = await caller.onboarding.channels({ guildId: guild.id });
    expect(groups.map((group) => [group.category?.name ?? null, group.channels.map((c) => [c.name, c.everyone_can_chat])])).toEqual([
      [null, [["loose", true]]],
      ["Text Channels", [["general", true]]],
      ["Voice Channels", [["General", true]]],
      [
        "Lobby",
        [
          ["rules", false],
          ["staff", false],
        ],
      ],
    ]);
    expect(groups.flatMap((group) => group.channels.map((c) => c.id))).toEqual(expect.arrayContaining([rules.id, staff.id, loose.id]));

    const member = await makeUser(app.db);
    await addMember(app.db, guild.id, member.user.id);
    const seen = await createCaller({ db: app.db, userId: member.user.id }).onboarding.channels({ guildId: guild.id });
    expect(seen.flatMap((group) => group.channels.map((c) => c.name))).not.toContain("staff");

    const saved = await caller.onboarding.put({ guildId: guild.id, body: { mode: 1 }, reason: "Advanced it is" });
    expect(saved.mode).toBe(1);
    expect((await caller.onboarding.get({ guildId: guild.id })).mode).toBe(1);
    const entry = await app.db.auditLogEntry.findFirst({ where: { guildId: guild.id, actionType: AuditLogEvent.OnboardingCreate } });
    expect(entry?.reason).toBe("Advanced it is");
  });
});
