import { GatewayDispatchEvents as E } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { EVERY_READ, readsChangedBy } from "./live-invalidation.ts";

describe("the reads a notice refetches", () => {
  it("are the section's own for changes that leave the viewer's access as it was", () => {
    expect(readsChangedBy({ type: E.GuildBanAdd })).toEqual(["member", "audit"]);
    expect(readsChangedBy({ type: E.MessageCreate })).toContain("message");
    expect(readsChangedBy({ type: E.InviteCreate })).toContain("invite");
    expect(readsChangedBy({ type: E.MessageReactionAdd })).toEqual(["message"]);
    expect(readsChangedBy({ type: E.GuildAuditLogEntryCreate })).toEqual(["audit"]);
  });

  it("are every read for changes to roles, channels, the guild, the viewer's own membership, and a resync", () => {
    for (const type of [E.GuildRoleUpdate, E.ChannelUpdate, E.GuildUpdate, "RESYNC"]) expect(readsChangedBy({ type })).toEqual([EVERY_READ]);
    expect(readsChangedBy({ type: E.GuildMemberUpdate, self: true })).toEqual([EVERY_READ]);
    expect(readsChangedBy({ type: E.GuildMemberRemove, gone: true })).toEqual([EVERY_READ]);
  });
});
