import { afterEach, describe, expect, it, vi } from "vitest";
import { addIntegration } from "~/server/integrations/integration.service.ts";
import { makeBot, makeGuild, makeUser } from "~/test/factories.ts";
import { MISSING_ACCESS } from "~/test/member-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";
import { addConnection, removeConnection } from "./connection.service.ts";
import { ZConnectionAddSchema, type TConnectionAdd } from "./connection.schema.ts";

const app = useTestApp();

afterEach(() => {
  vi.useRealTimers();
});

/** A user whose bearer token has the `connections` scope, and their REST client. */
async function connectedUser() {
  const { user, token } = await makeUser(app.db, ["identify", "connections"]);
  const api = app.as(bearer(token));
  const link = (input: Omit<Partial<TConnectionAdd>, "user_id">) =>
    addConnection(
      { db: app.db, actor: null },
      ZConnectionAddSchema.parse({ user_id: user.id, type: "github", id: `${Math.random()}`, name: "octo", ...input }),
    );
  const listedIds = async () => (await api.get<{ id: string }[]>("/users/@me/connections")).body.map((c) => c.id);
  return { user, api, link, listedIds };
}

function at(iso: string) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
}

describe("GET /users/@me/connections", () => {
  it("answers the user's connected accounts with their settings", async () => {
    const { user, api, link } = await connectedUser();
    await link({ type: "github", id: "583231", name: "octocat", visibility: 1, friend_sync: true });
    await link({ type: "steam", id: "7656", name: "gamer", revoked: true, verified: false, show_activity: false, two_way_link: true });
    const list = await api.get("/users/@me/connections");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: "583231",
        name: "octocat",
        type: "github",
        verified: true,
        revoked: false,
        visibility: 1,
        friend_sync: true,
        show_activity: true,
        two_way_link: false,
        integrations: [],
      },
      {
        id: "7656",
        name: "gamer",
        type: "steam",
        verified: false,
        revoked: true,
        visibility: 0,
        friend_sync: false,
        show_activity: false,
        two_way_link: true,
        integrations: [],
      },
    ]);
    expect(await removeConnection({ db: app.db, actor: null }, { userId: user.id, type: "steam", id: "7656" })).toBe(true);
    expect((await api.get("/users/@me/connections")).body).toHaveLength(1);
  });

  it("names the guild integrations made from a Twitch account", async () => {
    const { user, api, link } = await connectedUser();
    const owner = await makeBot(app.db);
    const guild = await makeGuild(app.db, owner.actor);
    await link({ type: "twitch", id: "tw-42", name: "streamer" });
    const integration = await addIntegration(
      { db: app.db, actor: null },
      { guild_id: guild.id, type: "twitch", name: "streamer", account_id: "tw-42", account_name: "streamer", user_id: user.id },
    );
    const [twitch] = (await api.get("/users/@me/connections")).body;
    expect(twitch.integrations).toEqual([
      { id: integration.id, type: "twitch", account: { id: "tw-42", name: "streamer" }, guild: { id: guild.id, name: guild.name, icon: null } },
    ]);
  });

  it("needs the connections scope on a bearer token; a bot has none", async () => {
    const { user, token } = await makeUser(app.db, ["identify", "guilds"]);
    await addConnection({ db: app.db, actor: null }, ZConnectionAddSchema.parse({ user_id: user.id, type: "github", id: "1", name: "octo" }));
    expect((await app.as(bearer(token)).get("/users/@me/connections")).body).toEqual(MISSING_ACCESS);
    const { token: botToken, user: botUser } = await makeBot(app.db);
    const answer = await app.as(bot(botToken)).get("/users/@me/connections");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
    await expect(
      addConnection({ db: app.db, actor: null }, ZConnectionAddSchema.parse({ user_id: botUser.id, type: "github", id: "2", name: "bot" })),
    ).rejects.toMatchObject({
      code: 50035,
    });
    expect((await app.as().get("/users/@me/connections")).status).toBe(401);
  });
});

describe("retired connection kinds (spec 9)", () => {
  it("lists legacy Bungie connections until 10 July 2026 and new ones never", async () => {
    const { link, listedIds } = await connectedUser();
    await link({ type: "github", id: "gh", created_at: "2024-01-01T00:00:00Z" });
    await link({ type: "bungie", id: "legacy", created_at: "2025-03-01T00:00:00Z" });
    await link({ type: "bungie", id: "new", created_at: "2026-04-10T00:00:00Z" });

    at("2026-07-09T23:59:59Z");
    expect(await listedIds()).toEqual(["gh", "legacy"]);
    at("2026-07-10T00:00:00Z");
    expect(await listedIds()).toEqual(["gh"]);
  });

  it("lists legacy Riot Games and League of Legends connections until 22 September 2026 and new ones never", async () => {
    const { link, listedIds } = await connectedUser();
    await link({ type: "riotgames", id: "riot-legacy", created_at: "2026-04-09T23:59:59Z" });
    await link({ type: "leagueoflegends", id: "lol-legacy", created_at: "2025-06-01T00:00:00Z" });
    await link({ type: "riotgames", id: "riot-new", created_at: "2026-05-01T00:00:00Z" });
    await link({ type: "bungie", id: "bungie-legacy", created_at: "2025-07-01T00:00:00Z" });

    at("2026-05-02T00:00:00Z");
    expect(await listedIds()).toEqual(["lol-legacy", "bungie-legacy", "riot-legacy"]);
    // Bungie's date comes first; Riot's kinds stay until theirs.
    at("2026-09-21T23:59:59Z");
    expect(await listedIds()).toEqual(["lol-legacy", "riot-legacy"]);
    at("2026-09-22T00:00:00Z");
    expect(await listedIds()).toEqual([]);
  });
});
