import { GatewayDispatchEvents } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { LobbyEvents } from "~/server/lobbies/lobby.schema.ts";
import { guildIdOf, InternalEvents } from "./event-map.ts";

describe("the guild of an event", () => {
  it("is a guild's own id for the guild events", () => {
    expect(guildIdOf(GatewayDispatchEvents.GuildDelete, { id: "10" })).toBe("10");
  });

  it("is guild_id for the events inside a guild", () => {
    expect(guildIdOf(GatewayDispatchEvents.GuildRoleDelete, { guild_id: "10", role_id: "11" })).toBe("10");
    expect(guildIdOf(GatewayDispatchEvents.WebhooksUpdate, { guild_id: "10", channel_id: "12" })).toBe("10");
  });

  it("is none for a message outside guilds, lobby events and internal events", () => {
    expect(guildIdOf(GatewayDispatchEvents.MessageDelete, { id: "13", channel_id: "12" })).toBeNull();
    expect(guildIdOf(LobbyEvents.MessageDelete, { id: "13", lobby_id: "14" })).toBeNull();
    expect(guildIdOf(InternalEvents.TokensRevoked, { token_ids: ["15"] })).toBeNull();
  });
});
