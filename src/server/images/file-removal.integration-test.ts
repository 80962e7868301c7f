import { ChannelType, GuildFeature } from "discord-api-types/v10";
import { describe, expect, it, vi } from "vitest";
import { fetchHandler } from "~/server/http/fetch-adapter.ts";
import { until } from "~/test/until.ts";
import { useTestApp } from "~/test/test-app.ts";
import { webhookKit, type WebhookBody } from "~/test/webhook-kit.ts";
import { cdnHandler } from "./cdn.ts";
import { fileStore, REMOVAL_RETRY_MS, sweepStoredFiles } from "./file-removal.ts";

const app = useTestApp();
const kit = webhookKit(app);
const cdn = fetchHandler(cdnHandler(() => app.db));

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let drawn = 0;
/** An image data URI with bytes (and so a hash) of its own. */
function image(): string {
  return `data:image/png;base64,${Buffer.concat([PNG_SIGNATURE, Buffer.from(`image ${++drawn} ${Math.random()}`)]).toString("base64")}`;
}

/** What the public CDN answers for a URL or path. */
async function cdnStatus(url: string): Promise<number> {
  return (await cdn(new Request(new URL(url, "http://guildhall.test")))).status;
}

/** Whether the file store still holds the bytes behind a CDN URL. */
async function isStored(url: string): Promise<boolean> {
  const path = new URL(url, "http://guildhall.test").pathname.replace(/^\/cdn\//, "").replace(/\.png$/, "");
  const at = path.startsWith("attachments/") ? decodeURIComponent(path) : path;
  return (await app.db.image.count({ where: { path: at } })) === 1;
}

/** Served now, and once removed it answers 404 at once and leaves the store soon after. */
async function expectGone(...urls: string[]): Promise<void> {
  for (const url of urls) expect(await cdnStatus(url), url).toBe(404);
  await until(async () => (await Promise.all(urls.map(isStored))).every((stored) => !stored));
}

async function expectServed(...urls: string[]): Promise<void> {
  for (const url of urls) {
    expect(await cdnStatus(url), url).toBe(200);
    expect(await isStored(url), url).toBe(true);
  }
}

/** Executes a webhook with one file; answers the message's id and the file's URL. */
async function postFile(hook: WebhookBody, query = ""): Promise<{ id: string; url: string }> {
  const form = new FormData();
  form.set("payload_json", JSON.stringify({ content: "a file" }));
  form.set("files[0]", new Blob([`bytes ${Math.random()}`], { type: "text/plain" }), "notes.txt");
  const response = await app.dispatch(
    new Request(`http://guildhall.test/api/v10/webhooks/${hook.id}/${hook.token}?wait=true${query}`, { method: "POST", body: form }),
  );
  expect(response.status).toBe(200);
  const message = (await response.json()) as { id: string; attachments: { url: string }[] };
  return { id: message.id, url: message.attachments[0]!.url };
}

const setupHook = () => kit.setupWithWebhook("Files");

describe("files of deleted messages", () => {
  it("goes with a message deleted over REST and with a webhook's message deleted with its token", async () => {
    const { api, text, hook } = await setupHook();
    const first = await postFile(hook);
    const second = await postFile(hook);
    await expectServed(first.url, second.url);
    expect((await api.delete(`/channels/${text.id}/messages/${first.id}`)).status).toBe(204);
    await expectGone(first.url);
    expect((await app.as().delete(`/webhooks/${hook.id}/${hook.token}/messages/${second.id}`)).status).toBe(204);
    await expectGone(second.url);
  });

  it("goes with a file removed from its message by an edit", async () => {
    const { hook } = await setupHook();
    const posted = await postFile(hook);
    const edited = await app.as().patch(`/webhooks/${hook.id}/${hook.token}/messages/${posted.id}`, { attachments: [] });
    expect(edited.status).toBe(200);
    await expectGone(posted.url);
  });
});

describe("files of deleted channels, threads and guilds", () => {
  it("a channel takes its messages' files, its threads' and its webhooks' avatars", async () => {
    const { guild, api, text, hook } = await setupHook();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "files", type: ChannelType.PublicThread })).body as { id: string };
    const inChannel = await postFile(hook);
    const inThread = await postFile(hook, `&thread_id=${thread.id}`);
    const avatar = (await api.patch(`/webhooks/${hook.id}`, { avatar: image() })).body.avatar as string;
    const avatarUrl = `/cdn/avatars/${hook.id}/${avatar}.png`;
    const other = await kit.addChannel(guild.id, ChannelType.GuildText, "other");
    const otherHook = await kit.webhook(api, other.id, "Elsewhere");
    const elsewhere = await postFile(otherHook);
    await expectServed(inChannel.url, inThread.url, avatarUrl, elsewhere.url);

    expect((await api.delete(`/channels/${text.id}`)).status).toBe(200);
    await expectGone(inChannel.url, inThread.url, avatarUrl);
    await expectServed(elsewhere.url);
  });

  it("a thread takes its messages' files, and its channel keeps its own", async () => {
    const { api, text, hook } = await setupHook();
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "files", type: ChannelType.PublicThread })).body as { id: string };
    const inThread = await postFile(hook, `&thread_id=${thread.id}`);
    const inChannel = await postFile(hook);
    expect((await api.delete(`/channels/${thread.id}`)).status).toBe(200);
    await expectGone(inThread.url);
    await expectServed(inChannel.url);
  });

  it("a guild takes its icon and banner, its roles' icons, its members' guild avatars, its webhooks' avatars and its messages' files", async () => {
    const { guild, api, hook } = await setupHook();
    await kit.setFeatures(guild.id, [GuildFeature.Banner, GuildFeature.RoleIcons]);
    const edited = (await api.patch(`/guilds/${guild.id}`, { icon: image(), banner: image() })).body as { icon: string; banner: string };
    const role = (await api.post(`/guilds/${guild.id}/roles`, { name: "iconic", icon: image() })).body as { id: string; icon: string };
    const member = await kit.addBot(guild.id);
    const avatar = (await member.api.patch(`/guilds/${guild.id}/members/@me`, { avatar: image() })).body.avatar as string;
    const hookAvatar = (await api.patch(`/webhooks/${hook.id}`, { avatar: image() })).body.avatar as string;
    const file = await postFile(hook);
    const urls = [
      `/cdn/icons/${guild.id}/${edited.icon}.png`,
      `/cdn/banners/${guild.id}/${edited.banner}.png`,
      `/cdn/role-icons/${role.id}/${role.icon}.png`,
      `/cdn/guilds/${guild.id}/users/${member.user.id}/avatars/${avatar}.png`,
      `/cdn/avatars/${hook.id}/${hookAvatar}.png`,
      file.url,
    ];
    await expectServed(...urls);

    expect((await api.delete(`/guilds/${guild.id}`)).status).toBe(204);
    await expectGone(...urls);
  });
});

describe("replaced and removed images", () => {
  it("a guild's replaced icon answers 404, and setting it back serves it again", async () => {
    const { guild, api } = await kit.setup();
    const first = image();
    const old = (await api.patch(`/guilds/${guild.id}`, { icon: first })).body.icon as string;
    const next = (await api.patch(`/guilds/${guild.id}`, { icon: image() })).body.icon as string;
    await expectGone(`/cdn/icons/${guild.id}/${old}.png`);
    await expectServed(`/cdn/icons/${guild.id}/${next}.png`);
    expect((await api.patch(`/guilds/${guild.id}`, { icon: first })).body.icon).toBe(old);
    await expectServed(`/cdn/icons/${guild.id}/${old}.png`);
    expect((await api.patch(`/guilds/${guild.id}`, { icon: null })).body.icon).toBeNull();
    await expectGone(`/cdn/icons/${guild.id}/${old}.png`);
  });

  it("a role's replaced icon, and a deleted role's", async () => {
    const { guild, api } = await kit.setup();
    await kit.setFeatures(guild.id, [GuildFeature.RoleIcons]);
    const role = (await api.post(`/guilds/${guild.id}/roles`, { name: "iconic", icon: image() })).body as { id: string; icon: string };
    const next = (await api.patch(`/guilds/${guild.id}/roles/${role.id}`, { icon: image() })).body.icon as string;
    await expectGone(`/cdn/role-icons/${role.id}/${role.icon}.png`);
    await expectServed(`/cdn/role-icons/${role.id}/${next}.png`);
    expect((await api.delete(`/guilds/${guild.id}/roles/${role.id}`)).status).toBe(204);
    await expectGone(`/cdn/role-icons/${role.id}/${next}.png`);
  });

  it("a member's replaced guild avatar and banner, and both when they leave", async () => {
    const { guild, api } = await kit.setup();
    const member = await kit.addBot(guild.id);
    const patchMe = async (body: object) => (await member.api.patch(`/guilds/${guild.id}/members/@me`, body)).body as { avatar: string; banner: string };
    const url = (kind: string, hash: string) => `/cdn/guilds/${guild.id}/users/${member.user.id}/${kind}/${hash}.png`;
    const old = await patchMe({ avatar: image(), banner: image() });
    const next = await patchMe({ avatar: image() });
    await expectGone(url("avatars", old.avatar));
    await expectServed(url("avatars", next.avatar), url("banners", old.banner));
    expect((await api.delete(`/guilds/${guild.id}/members/${member.user.id}`)).status).toBe(204);
    await expectGone(url("avatars", next.avatar), url("banners", old.banner));
  });

  it("a webhook's replaced avatar, unless messages were posted under it, and every one of them when it is deleted", async () => {
    const { api, text } = await kit.setup();
    const hook = (await kit.create(api, text.id, { name: "Avatars", avatar: image() })).body as WebhookBody & { avatar: string };
    const url = (hash: string) => `/cdn/avatars/${hook.id}/${hash}.png`;
    const posted = (await app.as().post(`/webhooks/${hook.id}/${hook.token}`, { content: "under the first" }, { query: { wait: true } })).body;
    expect(posted.author.avatar).toBe(hook.avatar);
    const second = (await api.patch(`/webhooks/${hook.id}`, { avatar: image() })).body.avatar as string;
    const third = (await api.patch(`/webhooks/${hook.id}`, { avatar: image() })).body.avatar as string;
    // The first is still the avatar of a message; nothing was posted under the second.
    await expectGone(url(second));
    await expectServed(url(hook.avatar), url(third));
    expect((await api.delete(`/webhooks/${hook.id}`)).status).toBe(204);
    await expectGone(url(hook.avatar), url(third));
  });

  it("an application's replaced icon", async () => {
    const { owner } = await kit.setup();
    const api = app.as(`Bot ${owner.token}`);
    const old = (await api.patch("/applications/@me", { icon: image() })).body.icon as string;
    const next = (await api.patch("/applications/@me", { icon: image() })).body.icon as string;
    await expectGone(`/cdn/app-icons/${owner.application.id}/${old}.png`);
    await expectServed(`/cdn/app-icons/${owner.application.id}/${next}.png`);
  });
});

describe("a removal that fails", () => {
  it("answers 404 at once and is retried by the background sweep after a pause", async () => {
    const { api, text, hook } = await setupHook();
    const posted = await postFile(hook);
    const remove = vi.spyOn(fileStore, "remove").mockRejectedValueOnce(new Error("the store is unreachable"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      expect((await api.delete(`/channels/${text.id}/messages/${posted.id}`)).status).toBe(204);
      await until(() => Promise.resolve(remove.mock.settledResults.length === 1));
      await until(async () => (await app.db.storedFileDeletion.count({ where: { retryAt: { not: null } } })) === 1);
      expect(await cdnStatus(posted.url)).toBe(404);
      expect(await isStored(posted.url)).toBe(true);

      // Not before its pause is over.
      expect(await sweepStoredFiles(app.db)).toBe(0);
      expect(await isStored(posted.url)).toBe(true);
      expect(await sweepStoredFiles(app.db, new Date(Date.now() + REMOVAL_RETRY_MS + 1))).toBe(1);
      expect(await isStored(posted.url)).toBe(false);
      expect(await app.db.storedFileDeletion.count()).toBe(0);
    } finally {
      remove.mockRestore();
      logged.mockRestore();
    }
  });

  it("is taken up by the sweep when its process stopped before removing it", async () => {
    const { hook } = await setupHook();
    const posted = await postFile(hook);
    const path = new URL(posted.url).pathname.replace(/^\/cdn\//, "");
    // What a change leaves when its process stops right after committing.
    await app.db.storedFileDeletion.create({ data: { id: "stopped", path } });
    expect(await cdnStatus(posted.url)).toBe(404);
    expect(await sweepStoredFiles(app.db)).toBe(1);
    expect(await isStored(posted.url)).toBe(false);
  });
});
