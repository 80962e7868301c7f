import { readFileSync } from "node:fs";
import { ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { useTestApp } from "~/test/test-app.ts";
import { INVALID_WEBHOOK_TOKEN, webhookKit, type WebhookBody } from "~/test/webhook-kit.ts";
import { GITHUB_COLORS } from "./github/github-embed-style.ts";
import { SUPPORTED_GITHUB_EVENTS } from "./webhook-github.ts";

const app = useTestApp();
const kit = webhookKit(app);

/** A hand-written payload in the code host's shape, under fixtures/<event>.json. */
const fixture = (event: string) => JSON.parse(readFileSync(new URL(`./fixtures/${event}.json`, import.meta.url), "utf8")) as Record<string, any>;

const deliver = (hook: WebhookBody, event: string, payload: unknown, query: Record<string, string | boolean> = {}) =>
  app.as().post(`/webhooks/${hook.id}/${hook.token}/github`, payload, { query, headers: { "X-GitHub-Event": event } });

const REPO = "northwind/lantern";
const MIRA = { name: "mira-okafor", url: "https://github.com/mira-okafor", icon_url: "https://avatars.githubusercontent.com/u/5510021?v=4" };
const JONAS = { name: "jonas-lind", url: "https://github.com/jonas-lind", icon_url: "https://avatars.githubusercontent.com/u/5510022?v=4" };

/** What the platform shows for each supported event's fixture. */
const EXPECTED: Record<string, { title: string; url?: string; color?: number; description?: string; author?: typeof MIRA }> = {
  push: {
    title: `[${REPO}:main] 2 new commits`,
    url: "https://github.com/northwind/lantern/compare/0f1e2d3c4b5a...b2c3d4e5f607",
    color: GITHUB_COLORS.commits,
    description: [
      "[`a1b2c3d`](https://github.com/northwind/lantern/commit/a1b2c3d4e5f60718293a4b5c6d7e8f9012345678) Ramp brightness down below 10% - mira-okafor",
      "[`b2c3d4e`](https://github.com/northwind/lantern/commit/b2c3d4e5f60718293a4b5c6d7e8f90123456789a) Add a test for the low-battery curve - mira-okafor",
    ].join("\n"),
  },
  create: { title: `[${REPO}] New branch created: gradual-dim`, url: "https://github.com/northwind/lantern" },
  delete: { title: `[${REPO}] Tag deleted: v0.9.0-rc1` },
  fork: { title: `[${REPO}] Fork created: jonas-lind/lantern`, url: "https://github.com/jonas-lind/lantern" },
  commit_comment: {
    title: `[${REPO}] New comment on commit \`a1b2c3d\``,
    color: GITHUB_COLORS.comment,
    description: "This constant deserves a comment.",
    author: JONAS,
  },
  issue_comment: {
    title: `[${REPO}] New comment on issue #42: Lantern flickers when the battery is low`,
    url: "https://github.com/northwind/lantern/issues/42#issuecomment-1900001",
    color: GITHUB_COLORS.comment,
    author: JONAS,
  },
  issues: {
    title: `[${REPO}] Issue opened: #42 Lantern flickers when the battery is low`,
    url: "https://github.com/northwind/lantern/issues/42",
    color: GITHUB_COLORS.issueOpened,
    description: "Steps:\n1. Drain the battery below 10%\n2. Watch the light flicker",
  },
  member: { title: `[${REPO}] New collaborator added: jonas-lind`, url: "https://github.com/jonas-lind" },
  public: { title: `[${REPO}] Now open sourced!` },
  pull_request: { title: `[${REPO}] Pull request opened: #57 Dim the light gradually below 10%`, color: GITHUB_COLORS.pullRequestOpened },
  pull_request_review: { title: `[${REPO}] Pull request review approved: #57 Dim the light gradually below 10%`, color: GITHUB_COLORS.success },
  pull_request_review_comment: {
    title: `[${REPO}] New review comment on pull request #57: Dim the light gradually below 10%`,
    description: "Could this curve be a lookup table?",
    author: JONAS,
  },
  release: { title: `[${REPO}] New release published: Lantern 1.0`, url: "https://github.com/northwind/lantern/releases/tag/v1.0.0" },
  watch: { title: `[${REPO}] New star added` },
  check_run: { title: `[${REPO}:gradual-dim] Check run build (ubuntu-latest): failure`, color: GITHUB_COLORS.failure, description: "2 tests failed" },
  check_suite: { title: `[${REPO}:gradual-dim] Check suite (GitHub Actions): success`, color: GITHUB_COLORS.success },
  discussion: { title: `[${REPO}] New discussion #9: Should the lantern have a night mode?`, color: GITHUB_COLORS.issueOpened },
  discussion_comment: { title: `[${REPO}] New comment on discussion #9: Should the lantern have a night mode?`, author: JONAS },
};

const setupHook = () => kit.setupWithWebhook("Repo feed");

async function messagesOf(hook: WebhookBody) {
  const rows = await app.db.message.findMany({ where: { webhookId: hook.id }, orderBy: { id: "asc" } });
  return Promise.all(rows.map(async (row) => (await app.as().get(`/webhooks/${hook.id}/${hook.token}/messages/${row.id}`)).body));
}

describe("POST /webhooks/:webhookId/:token/github", () => {
  it("covers exactly the 18 events of the spec", () => {
    expect(SUPPORTED_GITHUB_EVENTS.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))("posts the platform's embed for %s, as GitHub with the sender as author", async (event, expected) => {
    const { hook } = await setupHook();
    const res = await deliver(hook, event, fixture(event));
    expect(res.status).toBe(200);
    const [message, ...rest] = await messagesOf(hook);
    expect(rest).toEqual([]);
    expect(res.body).toEqual(message);
    expect(message).toMatchObject({ content: "", author: { username: "GitHub", bot: true }, webhook_id: hook.id });
    expect(message.embeds).toHaveLength(1);
    const [embed] = message.embeds;
    expect(embed.title).toBe(expected.title);
    expect(embed.author).toMatchObject(expected.author ?? MIRA);
    if (expected.url) expect(embed.url).toBe(expected.url);
    if (expected.color !== undefined) expect(embed.color).toBe(expected.color);
    if (expected.description) expect(embed.description).toBe(expected.description);
  });

  it("accepts other events and actions the platform skips without posting (a ping, a labelled issue, a push of no commits)", async () => {
    const { hook } = await setupHook();
    expect((await deliver(hook, "ping", fixture("ping"))).status).toBe(204);
    expect((await deliver(hook, "issues", { ...fixture("issues"), action: "labeled" })).status).toBe(204);
    expect((await deliver(hook, "push", { ...fixture("push"), commits: [], head_commit: null })).status).toBe(204);
    expect((await deliver(hook, "toString", fixture("ping"))).status).toBe(204);
    expect(await messagesOf(hook)).toEqual([]);
    // wait=false answers before the message is stored, with 204.
    expect((await deliver(hook, "watch", fixture("watch"), { wait: false })).status).toBe(204);
    expect(await messagesOf(hook)).toHaveLength(1);
  });

  it("names a merged pull request, a force push and a closed issue as the platform does, and cuts long bodies", async () => {
    const { hook } = await setupHook();
    const pr = fixture("pull_request");
    await deliver(hook, "pull_request", { ...pr, action: "closed", pull_request: { ...pr.pull_request, merged: true } });
    await deliver(hook, "push", { ...fixture("push"), forced: true });
    const issues = fixture("issues");
    await deliver(hook, "issues", { ...issues, action: "closed" });
    await deliver(hook, "issues", { ...issues, issue: { ...issues.issue, body: "x".repeat(2000) } });
    const embeds = (await messagesOf(hook)).map((m) => m.embeds[0]);
    expect(embeds.map((e) => e.title)).toEqual([
      `[${REPO}] Pull request merged: #57 Dim the light gradually below 10%`,
      `[${REPO}] Branch main was force-pushed to \`b2c3d4e\``,
      `[${REPO}] Issue closed: #42 Lantern flickers when the battery is low`,
      `[${REPO}] Issue opened: #42 Lantern flickers when the battery is low`,
    ]);
    expect(embeds[2].color).toBe(GITHUB_COLORS.closed);
    expect(embeds[3].description).toHaveLength(500);
  });

  it("needs the sender and the right token, even for ignored events; posts in thread_id's thread; waits by default", async () => {
    const { api, text, hook } = await setupHook();
    const { sender: _sender, ...anonymous } = fixture("watch");
    expect((await deliver(hook, "watch", anonymous)).body.errors).toHaveProperty("sender");
    // Even an ignored event needs the right token.
    const wrong = await app.as().post(`/webhooks/${hook.id}/${"x".repeat(68)}/github`, fixture("ping"), { headers: { "X-GitHub-Event": "ping" } });
    expect(wrong.body).toEqual(INVALID_WEBHOOK_TOKEN);
    const thread = (await api.post(`/channels/${text.id}/threads`, { name: "ci", type: ChannelType.PublicThread })).body as { id: string };
    expect((await deliver(hook, "watch", fixture("watch"), { thread_id: thread.id })).body.channel_id).toBe(thread.id);
    // Waiting (the default), a message that cannot be posted is the sender's error.
    expect((await deliver(hook, "watch", fixture("watch"), { thread_id: "1234567890" })).body.code).toBe(10003);
  });
});
