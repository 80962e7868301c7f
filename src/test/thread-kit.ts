// Shared setup for the thread and voice-status integration tests: a guild with its default
// channels, channels of other kinds, members with chosen permissions, and a check of thread
// objects against the platform's ThreadResponse (the subset has no thread operations).
import type { ChannelType } from "discord-api-types/v10";
import { expect } from "vitest";
import type { Prisma } from "~/generated/prisma/client.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { writeGuildState } from "./factories.ts";
import { memberKit } from "./member-kit.ts";
import { loadConformance } from "./openapi-conformance.ts";
import type { TestApp } from "./test-app.ts";

export function threadKit(app: TestApp) {
  const kit = memberKit(app);

  /** A guild owned by a bot, with its #general text channel and General voice channel. */
  function setup() {
    return kit.setupWithChannels();
  }

  /** A channel row of any kind (announcement, forum, media...), as an operator would add it. */
  async function addChannel(guildId: string, type: ChannelType, data: Partial<Prisma.ChannelUncheckedCreateInput> = {}) {
    return writeGuildState(app.db, guildId, (tx) => tx.channel.create({ data: { id: newId(), guildId, name: `channel-${type}`, type, ...data } }));
  }

  /** Sets what @everyone may do, so a member's permissions are exactly what their roles add. */
  async function setEveryone(guildId: string, permissions: bigint) {
    await writeGuildState(app.db, guildId, (tx) => tx.role.update({ where: { id: guildId }, data: { permissions } }));
  }

  /** A channel overwrite for a role or member (type 0 role, 1 member). */
  async function addOverwrite(channelId: string, guildId: string, overwrite: { id: string; type: 0 | 1; allow?: bigint; deny?: bigint }) {
    await writeGuildState(app.db, guildId, (tx) =>
      tx.permissionOverwrite.create({
        data: { channelId, targetId: overwrite.id, type: overwrite.type, allow: overwrite.allow ?? 0n, deny: overwrite.deny ?? 0n },
      }),
    );
  }

  /** Asserts a body is a thread channel object as the platform describes it. */
  function expectThreadObject(body: unknown) {
    expect(loadConformance().checkSchema("ThreadResponse", body)).toBeNull();
  }

  return { ...kit, setup, addChannel, setEveryone, addOverwrite, expectThreadObject };
}
