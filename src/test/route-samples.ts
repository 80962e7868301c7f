// A request each row of the route table takes as valid, for tests that walk the table.
import fc from "fast-check";
import type { Route } from "~/server/rest/route.ts";
import type { RouteInput } from "./route-input.ts";
import { PNG } from "./member-kit.ts";
import type { World } from "./route-world.ts";
import { validArbitrary } from "./zod-arbitrary.ts";

/**
 * A request each row takes as valid, so what refuses a caller is who they are and not what
 * they sent: given here where the row's schema cannot tell (bodies read by the handler) or
 * where a body exercises the route's permission (a nickname needs CHANGE_NICKNAME);
 * otherwise an empty query and body, or a value built from the schema.
 */
function samples(w: World): Record<string, RouteInput> {
  const start = new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString();
  const end = new Date(Date.now() + 25 * 60 * 60 * 1000).toISOString();
  return {
    "POST /guilds": { body: { name: "another guild" } },
    "PATCH /guilds/:guildId": { body: { name: "renamed" } },
    "POST /guilds/:guildId/channels": { body: { name: "new-channel" } },
    "PATCH /guilds/:guildId/channels": { body: [{ id: w.channels.forum, position: 3 }] },
    "PATCH /channels/:channelId": { body: { name: "renamed" } },
    "POST /channels/:channelId/threads": { body: { name: "new thread", type: 11 } },
    "POST /channels/:channelId/messages": { body: { content: "hello" } },
    "PATCH /channels/:channelId/messages/:messageId": { body: { content: "edited" } },
    "PUT /channels/:channelId/voice-status": { body: { status: "live" } },
    "POST /guilds/:guildId/roles": { body: { name: "new role" } },
    "PATCH /guilds/:guildId/roles": { body: [{ id: w.role, position: 1 }] },
    "PATCH /guilds/:guildId/roles/:roleId": { body: { name: "renamed" } },
    "POST /guilds/:guildId/emojis": { body: { name: "sample", image: PNG } },
    "PATCH /guilds/:guildId/emojis/:emojiId": { body: { name: "renamed" } },
    "POST /applications/:applicationId/emojis": { body: { name: "sample", image: PNG } },
    "PATCH /applications/:applicationId/emojis/:emojiId": { body: { name: "renamed" } },
    // Only its header makes a file a GIF, so a text part serves.
    "POST /guilds/:guildId/stickers": { form: { name: "sample", tags: "smile", file: { file: "GIF89a sample" } } },
    "PATCH /guilds/:guildId/stickers/:stickerId": { body: { name: "renamed" } },
    "POST /applications/:applicationId/commands": { body: { name: "sample", description: "A sample" } },
    "PUT /applications/:applicationId/commands": { body: [{ name: "sample", description: "A sample" }] },
    "PATCH /applications/:applicationId/commands/:commandId": { body: { description: "changed" } },
    "POST /applications/:applicationId/guilds/:guildId/commands": { body: { name: "sample", description: "A sample" } },
    "PUT /applications/:applicationId/guilds/:guildId/commands": { body: [{ name: "sample", description: "A sample" }] },
    "PATCH /applications/:applicationId/guilds/:guildId/commands/:commandId": { body: { description: "changed" } },
    // @everyone, which the editor may always name, denied where the world allows it.
    "PUT /applications/:applicationId/guilds/:guildId/commands/:commandId/permissions": {
      body: { permissions: [{ id: w.guild, type: 1, permission: false }] },
    },
    "POST /users/@me/channels": { body: { recipient_id: w.target } },
    "GET /guilds/:guildId/members/search": { query: { query: "user" } },
    "PATCH /guilds/:guildId/members/@me": { body: { nick: "nickname" } },
    "PATCH /guilds/:guildId/members/@me/nick": { body: { nick: "nickname" } },
    "PUT /guilds/:guildId/members/:userId": { body: { access_token: "not-a-token" } },
    "PATCH /guilds/:guildId/members/:userId": { body: { nick: "nickname" } },
    "PATCH /guilds/:guildId/member-verification": { body: { enabled: true } },
    "POST /guilds/:guildId/bulk-ban": { body: { user_ids: [w.target] } },
    "POST /guilds/:guildId/prune": { body: { days: 1 } },
    "PATCH /guilds/:guildId/vanity-url": { body: { code: "worldvanity" } },
    "PUT /invites/:code/target-users": { form: { target_users_file: { file: `user_id\n${w.target}\n` } } },
    "POST /invites/:code/target-users/bulk-add": { body: { user_ids: [w.target] } },
    "POST /invites/:code/target-users/bulk-delete": { body: { user_ids: [w.target] } },
    "PUT /guilds/:guildId/incident-actions": { body: { invites_disabled_until: null } },
    "PATCH /guilds/:guildId/welcome-screen": { body: { description: "welcome" } },
    "PUT /guilds/:guildId/onboarding": { body: { enabled: false } },
    "PATCH /guilds/:guildId/widget": { body: { enabled: true } },
    "POST /guilds/:guildId/scheduled-events": {
      body: { name: "event", privacy_level: 2, entity_type: 3, scheduled_start_time: start, scheduled_end_time: end, entity_metadata: { location: "here" } },
    },
    "PATCH /applications/@me": { body: { description: "changed" } },
    "POST /channels/:channelId/webhooks": { body: { name: "hook" } },
    "POST /channels/:channelId/followers": { body: { webhook_channel_id: w.channels.text } },
    "PATCH /webhooks/:webhookId": { body: { name: "renamed" } },
    "PATCH /webhooks/:webhookId/:token": { body: { name: "renamed" } },
    "POST /webhooks/:webhookId/:token": { body: { content: "hello" } },
    "PATCH /webhooks/:webhookId/:token/messages/:messageId": { body: { content: "edited" } },
    "POST /webhooks/:webhookId/:token/slack": { body: { text: "hello" } },
    "POST /webhooks/:webhookId/:token/github": {
      body: { zen: "Keep it simple.", hook_id: 1, sender: { login: "octocat" } },
      headers: { "x-github-event": "ping" },
    },
    "POST /oauth2/token": { urlencoded: { grant_type: "client_credentials", client_id: w.owner.application.id, client_secret: w.clientSecret } },
    "POST /oauth2/token/revoke": { urlencoded: { token: "unknown", client_id: w.owner.application.id, client_secret: w.clientSecret } },
    "PUT /lobbies": { body: { secret: "secret" } },
    "PATCH /lobbies/:lobbyId": { body: { metadata: { round: "2" } } },
    "POST /lobbies/:lobbyId/members/bulk": { body: [{ id: w.target }] },
    "PATCH /lobbies/:lobbyId/channel-linking": { body: { channel_id: w.channels.text } },
    "POST /lobbies/:lobbyId/messages": { body: { content: "hello" } },
    "PUT /lobbies/:lobbyId/messages/:messageId/moderation-metadata": { body: { verdict: "ok" } },
  };
}

function valid(world: World, route: Route, part: "query" | "body", sample: unknown): unknown {
  const schema = route[part];
  const candidate = sample ?? (part === "query" ? {} : undefined);
  if (!schema || schema.safeParse(candidate).success) return candidate;
  if (sample !== undefined) throw new Error(`${route.method} ${route.path}: its sample ${part} is not valid: ${schema.safeParse(candidate).error!.message}`);
  const built = fc.sample(validArbitrary(schema, { ids: world.ids }), { numRuns: 500, seed: 1 }).find((each) => schema.safeParse(each).success);
  if (built === undefined)
    throw new Error(`${route.method} ${route.path}: no valid ${part} could be built; give the row a sample in src/test/route-samples.ts`);
  return built;
}

/** The row's sample request, checked against its schemas. */
export function sampleInput(world: World, route: Route): RouteInput {
  const sample = samples(world)[`${route.method} ${route.path}`] ?? {};
  if (sample.form || sample.urlencoded) return sample;
  return { ...sample, query: valid(world, route, "query", sample.query) as RouteInput["query"], body: valid(world, route, "body", sample.body) };
}
