import { setSessionPresence } from "~/server/presences/presence.service.ts";
import type { CommandContext } from "../gateway-command.ts";
import type { TPresenceCommand } from "../commands.ts";

/** PRESENCE_UPDATE (op 3): the session's presence, announced in the user's guilds when others see a change. No answer on the connection. */
export async function updatePresence({ db, view, now }: CommandContext, presence: TPresenceCommand): Promise<void> {
  await setSessionPresence(db, { id: view.sessionId, userId: view.botUserId }, presence, now());
}
