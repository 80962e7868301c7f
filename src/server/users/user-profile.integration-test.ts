import { GatewayIntentBits as I, type APIUser } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { createEventRouter } from "~/server/gateway/event-router.ts";
import { DEFAULT_SESSION_START_LIMITS } from "~/server/gateway/session-start-limit.ts";
import { readOwnedImage } from "~/server/images/image.service.ts";
import { makeBot, makeUser } from "~/test/factories.ts";
import { identified, useGatewayServer } from "~/test/gateway-kit.ts";
import { PNG } from "~/test/member-kit.ts";
import { bearer, bot } from "~/test/rest-client.ts";
import { useTestApp } from "~/test/test-app.ts";

const app = useTestApp();
const server = useGatewayServer(app, {
  router: () => createEventRouter({ db: app.db }),
  limits: { sessionStart: { ...DEFAULT_SESSION_START_LIMITS, identifyIntervalMs: 0 } },
});

describe("GET /users/{user.id}", () => {
  it("shows a bot any user's public object, and 10013 for an id no one has", async () => {
    const caller = await makeBot(app.db);
    const { user } = await makeUser(app.db);
    const api = app.as(bot(caller.token));

    const found = await api.get<APIUser>(`/users/${user.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: user.id, username: user.username, discriminator: "0", avatar: null });
    expect(found.body).not.toHaveProperty("email");
    expect((await api.get<APIUser>(`/users/${caller.user.id}`)).body.bot).toBe(true);

    const missing = await api.get(`/users/123456789012345678`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 10013, message: "Unknown User" });
  });
});

describe("PATCH /users/@me", () => {
  it("renames a bot and sets its avatar (kept for the CDN), with USER_UPDATE to its own sessions only", async () => {
    const subject = await makeBot(app.db);
    const other = await makeBot(app.db);
    const { client: own } = await identified(server, subject.token, { intents: I.Guilds });
    const { client: elsewhere } = await identified(server, other.token, { intents: I.Guilds });
    const api = app.as(bot(subject.token));

    const renamed = await api.patch<APIUser>("/users/@me", { username: "Helper Bot", avatar: PNG });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: subject.user.id, username: "Helper Bot", bot: true });
    const hash = renamed.body.avatar!;
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect((await readOwnedImage(app.db, "avatars", subject.user.id, hash))?.contentType).toBe("image/png");

    const event = (await own.dispatch("USER_UPDATE")).d as APIUser;
    expect(event).toMatchObject({ id: subject.user.id, username: "Helper Bot", avatar: hash });
    // Another bot hears nothing of it: its next event is its own rename.
    await app.as(bot(other.token)).patch("/users/@me", { username: "Other Bot" });
    expect(((await elsewhere.dispatch("USER_UPDATE")).d as APIUser).id).toBe(other.user.id);

    // Everyone sees the new name; clearing the avatar lets the stored image go.
    expect((await app.as(bot(other.token)).get<APIUser>(`/users/${subject.user.id}`)).body.username).toBe("Helper Bot");
    const cleared = await api.patch<APIUser>("/users/@me", { avatar: null });
    expect(cleared.body).toMatchObject({ username: "Helper Bot", avatar: null });
  });

  it("refuses names the platform refuses, field by field, and changes nothing", async () => {
    const subject = await makeBot(app.db);
    const api = app.as(bot(subject.token));
    for (const [username, code] of [
      ["a", "BASE_TYPE_BAD_LENGTH"],
      ["x".repeat(33), "BASE_TYPE_BAD_LENGTH"],
      ["my discord bot", "USERNAME_INVALID_CONTAINS"],
      ["bot#1", "USERNAME_INVALID_CONTAINS"],
      ["Everyone", "USERNAME_INVALID_CONTAINS"],
    ] as const) {
      const refused = await api.patch("/users/@me", { username });
      expect(refused.status, username).toBe(400);
      expect(refused.body, username).toMatchObject({ code: 50035, errors: { username: { _errors: [{ code }] } } });
    }
    const badImage = await api.patch("/users/@me", { username: "Fine Name", avatar: "data:image/png;base64,AAAA" });
    expect(badImage.body).toMatchObject({ code: 50035, errors: { avatar: { _errors: [{ code: "IMAGE_INVALID" }] } } });
    expect((await api.get<APIUser>("/users/@me")).body.username).toBe(subject.user.username);
  });

  it("is a bot's own: a user's OAuth2 token cannot change its user", async () => {
    const { token } = await makeUser(app.db);
    const refused = await app.as(bearer(token)).patch("/users/@me", { username: "Someone Else" });
    expect(refused.status).toBe(401);
  });
});
