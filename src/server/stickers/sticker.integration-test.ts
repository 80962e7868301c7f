import { crc32, deflateSync } from "node:zlib";
import {
  AuditLogEvent,
  GatewayDispatchEvents as E,
  GatewayIntentBits as I,
  GuildFeature,
  PermissionFlagsBits as P,
  Routes,
  StickerFormatType,
  StickerType,
  type APISticker,
} from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import type { HttpRequest } from "~/server/http/http-types.ts";
import { answerCdn } from "~/server/images/cdn.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { writeGuildState } from "~/test/factories.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { useLibraryServer } from "~/test/library-server.ts";
import { MISSING_ACCESS, MISSING_PERMISSIONS } from "~/test/member-kit.ts";
import { threadKit } from "~/test/thread-kit.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const kit = threadKit(app);
const library = useLibraryServer(app);
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 1x1 grey PNG; `animated` adds the animation control chunk that makes it an APNG. */
function png(animated = false): Buffer {
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  const animation = Buffer.alloc(8);
  animation.writeUInt32BE(1, 0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    ...(animated ? [chunk("acTL", animation)] : []),
    chunk("IDAT", deflateSync(Buffer.from([0, 0x80]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const GIF = Buffer.from("R0lGODlhAQABAIAAAP///wAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAIfkEAAAAAAAsAAAAAAEAAQAAAgJEAQA7", "base64");
const LOTTIE = Buffer.from(JSON.stringify({ v: "5.5.2", fr: 30, ip: 0, op: 60, w: 320, h: 320, layers: [] }));

type StickerForm = { name?: string; description?: string; tags?: string; file?: { bytes: Buffer; type: string; name?: string } };
function form(fields: StickerForm): FormData {
  const body = new FormData();
  for (const key of ["name", "description", "tags"] as const) if (fields[key] !== undefined) body.set(key, fields[key]);
  if (fields.file) body.set("file", new Blob([new Uint8Array(fields.file.bytes)], { type: fields.file.type }), fields.file.name ?? "sticker");
  return body;
}
const pngFile = { bytes: png(), type: "image/png", name: "wave.png" };
const sticker = (fields: StickerForm = {}) => form({ name: "wave", tags: "wave", file: pngFile, ...fields });

async function setup() {
  const base = await kit.setup();
  await kit.setEveryone(base.guild.id, P.ViewChannel);
  const stickers = `/guilds/${base.guild.id}/stickers`;
  const upload = (fields?: StickerForm, api = base.api) => api.post(stickers, undefined, { form: sticker(fields) });
  return { ...base, stickers, upload };
}

function cdn(pathname: string) {
  const request: HttpRequest = {
    method: "GET",
    url: pathname,
    header: () => null,
    clientAddress: null,
    stream: () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }) as unknown as AsyncIterable<Uint8Array>,
  };
  return answerCdn(app.db, request);
}

const fieldError = (body: { code: number; errors?: Record<string, any> }, field: string) => [body.code, body.errors?.[field]?._errors?.[0]?.code];

describe("guild stickers", () => {
  it("creates one from a multipart form (201), shown at once in the lists, on the guild and on the CDN; delete removes it", async () => {
    const { guild, owner, api, stickers, upload } = await setup();
    expect((await api.get(`/guilds/${guild.id}`)).body.stickers).toEqual([]);

    const created = await upload({ description: "Hello there" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^\d+$/),
      name: "wave",
      description: "Hello there",
      tags: "wave",
      type: StickerType.Guild,
      format_type: StickerFormatType.PNG,
      available: true,
      guild_id: guild.id,
      user: expect.objectContaining({ id: owner.user.id }),
    });
    const { id } = created.body;
    const { user: _user, ...plain } = created.body;
    expect((await api.get(stickers)).body).toEqual([created.body]);
    expect((await api.get(`${stickers}/${id}`)).body).toEqual(created.body);
    expect((await api.get(`/stickers/${id}`)).body).toEqual(created.body);
    expect((await api.get(`/guilds/${guild.id}`)).body.stickers).toEqual([plain]);
    const file = await cdn(`/cdn/stickers/${id}.png`);
    expect([file.status, file.headers["content-type"]]).toEqual([200, "image/png"]);

    expect((await api.delete(`${stickers}/${id}`)).status).toBe(204);
    expect((await api.get(`${stickers}/${id}`)).body).toMatchObject({ code: 10060, message: "Unknown Sticker" });
    expect((await api.get(`/stickers/${id}`)).body.code).toBe(10060);
    expect((await api.get(`/guilds/${guild.id}`)).body.stickers).toEqual([]);
    expect((await cdn(`/cdn/stickers/${id}.png`)).status).toBe(404);
  });

  it("takes a deleted guild's sticker files off the CDN with it", async () => {
    const { guild, api, upload } = await setup();
    const { id } = (await upload()).body;
    expect((await api.delete(`/guilds/${guild.id}`)).status).toBe(204);
    expect((await cdn(`/cdn/stickers/${id}.png`)).status).toBe(404);
  });

  it("shows a sticker to members (the uploader only to those who may create or manage expressions), 10060 to anyone else", async () => {
    const { guild, stickers, upload } = await setup();
    const { id } = (await upload()).body;
    const plain = await kit.addBotWithRole(guild.id, 0n, 1);
    const manager = await kit.addBotWithRole(guild.id, P.ManageGuildExpressions, 2);
    expect((await plain.api.get(`/stickers/${id}`)).body).not.toHaveProperty("user");
    expect((await plain.api.get(stickers)).body[0]).not.toHaveProperty("user");
    expect((await manager.api.get(`/stickers/${id}`)).body.user).toBeDefined();

    const outsider = await kit.setup();
    expect((await outsider.api.get(`/stickers/${id}`)).body).toMatchObject({ code: 10060 });
    expect((await outsider.api.get(`/stickers/123456789012345678`)).body.code).toBe(10060);
    expect((await outsider.api.get(stickers)).body).toEqual(MISSING_ACCESS);
    expect((await outsider.api.get(`/guilds/${outsider.guild.id}/stickers/${id}`)).body.code).toBe(10060);
  });

  it("reads the format from the file: PNG, APNG and GIF; Lottie only in verified or partnered guilds", async () => {
    const { guild, upload } = await setup();
    expect((await upload({ file: { bytes: png(true), type: "image/png" } })).body.format_type).toBe(StickerFormatType.APNG);
    const gif = await upload({ file: { bytes: GIF, type: "image/gif" } });
    expect(gif.body.format_type).toBe(StickerFormatType.GIF);
    expect((await cdn(`/cdn/stickers/${gif.body.id}.gif`)).headers["content-type"]).toBe("image/gif");

    const lottie = { file: { bytes: LOTTIE, type: "application/json", name: "wave.json" } };
    expect((await upload(lottie)).body).toMatchObject({ code: 50046, message: "Invalid file uploaded" });
    for (const feature of [GuildFeature.Verified, GuildFeature.Partnered]) {
      await kit.setFeatures(guild.id, [feature]);
      const created = await upload(lottie);
      expect(created.body.format_type).toBe(StickerFormatType.Lottie);
      const json = await cdn(`/cdn/stickers/${created.body.id}.json`);
      expect([json.status, json.headers["content-type"]]).toEqual([200, "application/json"]);
    }
  });

  it("refuses a file past 512 KiB (50045), one that is no sticker (50046) and a form without one (50035)", async () => {
    const { upload } = await setup();
    const big = Buffer.concat([png(), Buffer.alloc(512 * 1024 + 1 - png().length)]);
    expect((await upload({ file: { bytes: big, type: "image/png" } })).body).toMatchObject({ code: 50045 });
    expect((await upload({ file: { bytes: Buffer.from("plain words"), type: "image/png" } })).body).toMatchObject({ code: 50046 });
    expect((await upload({ file: { bytes: Buffer.from([0xff, 0xd8, 0xff, 0xe0]), type: "image/jpeg" } })).body.code).toBe(50046);
    const missing = await setup().then(({ api, stickers }) => api.post(stickers, undefined, { form: form({ name: "wave", tags: "wave" }) }));
    expect(fieldError(missing.body, "file")).toEqual([50035, "BASE_TYPE_REQUIRED"]);
  });

  it("takes names of 2 to 30 characters, required tags, and a description empty or of 2 to 100", async () => {
    const { api, stickers, upload } = await setup();
    expect(fieldError((await upload({ name: "w" })).body, "name")).toEqual([50035, "BASE_TYPE_BAD_LENGTH"]);
    expect(fieldError((await upload({ name: "w".repeat(31) })).body, "name")).toEqual([50035, "BASE_TYPE_BAD_LENGTH"]);
    expect(fieldError((await api.post(stickers, undefined, { form: form({ name: "wave", file: pngFile }) })).body, "tags")).toEqual([
      50035,
      "BASE_TYPE_REQUIRED",
    ]);
    expect(fieldError((await upload({ description: "x" })).body, "description")[0]).toBe(50035);
    expect(fieldError((await upload({ description: "x".repeat(101) })).body, "description")[0]).toBe(50035);

    const created = await upload({ name: "w".repeat(30), description: "" });
    expect(created.body).toMatchObject({ name: "w".repeat(30), description: null });
    const path = `${stickers}/${created.body.id}`;
    expect((await api.patch(path, { description: "Now described", tags: "smile,happy" })).body).toMatchObject({
      description: "Now described",
      tags: "smile,happy",
    });
    expect(fieldError((await api.patch(path, { name: "x" })).body, "name")).toEqual([50035, "BASE_TYPE_BAD_LENGTH"]);
    expect((await api.patch(path, { description: null })).body.description).toBeNull();
  });

  it("holds 5 stickers at tier 0 and more at higher tiers (30039 when full)", async () => {
    const { guild, api, stickers, upload } = await setup();
    await writeGuildState(app.db, guild.id, (tx) =>
      tx.sticker.createMany({
        data: Array.from({ length: 5 }, (_, i) => {
          const id = newId();
          return { id, guildId: guild.id, name: `seeded ${i}`, tags: "seed", formatType: StickerFormatType.PNG, file: `stickers/${id}` };
        }),
      }),
    );
    const full = await upload();
    expect([full.status, full.body.code]).toEqual([400, 30039]);
    await writeGuildState(app.db, guild.id, (tx) => tx.guild.update({ where: { id: guild.id }, data: { premiumTier: 1 } }));
    expect((await upload()).status).toBe(201);
    expect((await api.get(stickers)).body).toHaveLength(6);
  });

  it("needs CREATE_GUILD_EXPRESSIONS to add, and MANAGE_GUILD_EXPRESSIONS to edit or delete others' (CREATE suffices for one's own)", async () => {
    const { guild, api, stickers, upload } = await setup();
    const plain = await kit.addBotWithRole(guild.id, 0n, 1);
    const creator = await kit.addBotWithRole(guild.id, P.CreateGuildExpressions, 2);
    const manager = await kit.addBotWithRole(guild.id, P.ManageGuildExpressions, 3);
    const owners = (await upload()).body.id as string;

    expect((await upload({}, plain.api)).body).toEqual(MISSING_PERMISSIONS);
    expect((await upload({}, manager.api)).body).toEqual(MISSING_PERMISSIONS);
    const own = (await upload({ name: "mine" }, creator.api)).body.id as string;
    expect((await creator.api.patch(`${stickers}/${own}`, { name: "still mine" })).body.name).toBe("still mine");
    expect((await creator.api.patch(`${stickers}/${owners}`, { name: "taken" })).body).toEqual(MISSING_PERMISSIONS);
    expect((await creator.api.delete(`${stickers}/${owners}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await plain.api.delete(`${stickers}/${own}`)).body).toEqual(MISSING_PERMISSIONS);
    expect((await manager.api.patch(`${stickers}/${owners}`, { name: "managed" })).body.name).toBe("managed");
    expect((await manager.api.delete(`${stickers}/${own}`)).status).toBe(204);
    expect((await api.get(stickers)).body.map((row: { name: string }) => row.name)).toEqual(["managed"]);
  });

  it("sends GUILD_STICKERS_UPDATE with the whole list to sessions with GUILD_EXPRESSIONS, and leaves STICKER_* audit entries", async () => {
    const { guild, owner, api, stickers, upload } = await setup();
    const watcher = await kit.addBotWithRole(guild.id, 0n, 1);
    const { client: listening } = await identified(server, watcher.token, { intents: I.Guilds | I.GuildExpressions });
    const { client: deaf } = await identified(server, watcher.token, { intents: I.Guilds });
    for (const client of [listening, deaf]) await client.dispatch(E.GuildCreate);

    const first = (await upload({ name: "first" })).body.id as string;
    expect((await listening.dispatch(E.GuildStickersUpdate)).d).toMatchObject({ guild_id: guild.id, stickers: [{ id: first, name: "first" }] });
    await api.post(`/guilds/${guild.id}/roles`, { name: "after" });
    const frames = await deaf.framesThrough((frame) => frame.t === E.GuildRoleCreate, E.GuildRoleCreate);
    expect(frames.map((frame) => frame.t)).not.toContain(E.GuildStickersUpdate);

    const second = (await upload({ name: "second" })).body.id as string;
    await api.patch(`${stickers}/${first}`, { name: "renamed", description: "A wave" }, { headers: { "x-audit-log-reason": "typo" } });
    await api.delete(`${stickers}/${second}`);
    const updates = await kit.eventsOf(guild.id, E.GuildStickersUpdate);
    expect(updates.map((update) => update.stickers.map((row: { name: string }) => row.name))).toEqual([
      ["first"],
      ["first", "second"],
      ["renamed", "second"],
      ["renamed"],
    ]);
    expect(updates[3]!.stickers[0]).not.toHaveProperty("user");

    expect(await kit.auditOf(guild.id, AuditLogEvent.StickerCreate)).toMatchObject([
      { userId: owner.user.id, targetId: first, changes: expect.arrayContaining([{ key: "name", new_value: "first" }]) },
      { targetId: second },
    ]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.StickerUpdate)).toEqual([
      {
        userId: owner.user.id,
        targetId: first,
        reason: "typo",
        changes: [
          { key: "name", old_value: "first", new_value: "renamed" },
          { key: "description", new_value: "A wave" },
        ],
        options: null,
      },
    ]);
    expect(await kit.auditOf(guild.id, AuditLogEvent.StickerDelete)).toMatchObject([{ targetId: second, changes: expect.any(Array) }]);

    const { client: later } = await identified(server, watcher.token, { intents: I.Guilds });
    expect(((await later.dispatch(E.GuildCreate)).d as { stickers: { id: string }[] }).stickers.map((row) => row.id)).toEqual([first]);
  });
});

describe("@discordjs/rest on the sticker endpoints", () => {
  it("uploads a sticker as discord.js does (its fields beside the file), edits and deletes it", async () => {
    const { guild, owner } = await setup();
    const rest = library.client(owner.token);
    // discord.js's GuildStickerManager.create sends exactly this.
    const created = (await rest.post(Routes.guildStickers(guild.id), {
      appendToFormData: true,
      body: { name: "wave", tags: "wave", description: "" },
      files: [{ contentType: "image/png", data: png(), key: "file", name: "wave.png" }],
      reason: "a library's upload",
    })) as APISticker;
    expect(created).toMatchObject({ name: "wave", tags: "wave", description: null, format_type: StickerFormatType.PNG, guild_id: guild.id });
    expect((await kit.auditOf(guild.id, AuditLogEvent.StickerCreate))[0]!.reason).toBe("a library's upload");
    const edited = (await rest.patch(Routes.guildSticker(guild.id, created.id), { body: { name: "waving" } })) as APISticker;
    expect(edited.name).toBe("waving");
    expect(((await rest.get(Routes.sticker(created.id))) as APISticker).name).toBe("waving");
    await rest.delete(Routes.guildSticker(guild.id, created.id));
    expect(await rest.get(Routes.guildStickers(guild.id))).toEqual([]);
  });
});
