// A person the twin acts as has no gateway connection, yet presences and voice states belong
// to gateway sessions. The twin holds one session row per person (kind HELD_SESSION_KIND): no
// connection keeps it seen, so the sweep leaves it and nothing resumes it (session-store.ts).
// It carries the person's presence and voice until `offline` ends it, as closing the client
// would: presence and voice then go with it through the same functions a closed session uses.
import { createHash } from "node:crypto";
import type { Db } from "~/server/db/client.ts";
import { runChange } from "~/server/events/change.ts";
import { HELD_SESSION_KIND } from "~/server/gateway/session-store.ts";
import { disconnectVoiceStates } from "~/server/members/voice.service.ts";
import { changePresence } from "~/server/presences/presence.service.ts";

/** One id per person, shaped like a gateway session's, so concurrent holds land on one row. */
export function heldSessionId(userId: string): string {
  return createHash("sha256").update(`twin-held-session:${userId}`).digest("hex").slice(0, 32);
}

/** The person's held session, made when the twin first needs it; its id. */
export async function holdSession(db: Db, userId: string): Promise<string> {
  const id = heldSessionId(userId);
  await runChange({ db, actor: null }, ({ tx }) =>
    tx.gatewaySession.upsert({
      where: { id },
      // A person acts through no application and receives nothing: the routing fields stay empty.
      create: {
        id,
        kind: HELD_SESSION_KIND,
        applicationId: "",
        botUserId: userId,
        intents: 0,
        shardId: 0,
        shardCount: 1,
        largeThreshold: 50,
        messageContent: false,
      },
      update: {},
    }),
  );
  return id;
}

/** Ends the person's held session: the voice it held disconnects, then its presence goes (PRESENCE_UPDATE where that shows). */
export async function endHeldSession(db: Db, userId: string): Promise<void> {
  const id = heldSessionId(userId);
  await runChange({ db, actor: null }, async (change) =>
    disconnectVoiceStates(change, await change.tx.voiceState.findMany({ where: { gatewaySessionId: id } })),
  );
  await changePresence(db, userId, (tx) => tx.gatewaySession.deleteMany({ where: { id, kind: HELD_SESSION_KIND } }));
}
