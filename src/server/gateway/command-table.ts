import { GatewayOpcodes } from "discord-api-types/v10";
import { z } from "zod";
import type { Db } from "~/server/db/client.ts";
import type { GatewaySessionView } from "./gateway-types.ts";
import { updatePresence } from "./commands/presence-update.ts";
import { ZPresence } from "./commands.ts";

/** What a client command runs with: its session, and a way to answer on its own connection. */
export type CommandContext = {
  db: Db;
  view: GatewaySessionView;
  now: () => Date;
  /**
   * Sends a dispatch to this connection only. It is not stored in the outbox, so it carries the
   * last sequence the connection was sent and a RESUME does not replay it.
   */
  send(t: string, d: unknown): void;
  /** Whether the connection is gone (a long answer stops sending). */
  isClosed(): boolean;
};

/** One client command: the shape its `d` must have (else 4002) and what it does with it. */
export type GatewayCommand = {
  shape: z.ZodType;
  run(context: CommandContext, payload: unknown): Promise<void>;
};

/** A command whose `run` receives the payload its shape checked. */
function defineCommand<T>(shape: z.ZodType<T>, run: (context: CommandContext, payload: T) => Promise<void>): GatewayCommand {
  return { shape, run: (context, payload) => run(context, payload as T) };
}

/** A command whose payload is checked and which has no effect yet. */
const accepted = (shape: z.ZodType): GatewayCommand => defineCommand(shape, () => Promise.resolve());

/**
 * The commands a session sends after IDENTIFY or RESUME; each lives in `commands/`. An opcode
 * missing here closes the connection with 4001.
 */
export const GATEWAY_COMMANDS: Partial<Record<GatewayOpcodes, GatewayCommand>> = {
  [GatewayOpcodes.PresenceUpdate]: defineCommand(ZPresence, updatePresence),
  [GatewayOpcodes.VoiceStateUpdate]: accepted(z.object({ guild_id: z.string() }).loose()),
  [GatewayOpcodes.RequestGuildMembers]: accepted(z.object({ guild_id: z.union([z.string(), z.array(z.string())]) }).loose()),
  [GatewayOpcodes.RequestSoundboardSounds]: accepted(z.object({ guild_ids: z.array(z.string()) }).loose()),
  [GatewayOpcodes.RequestChannelInfo]: accepted(z.object({ guild_id: z.string() }).loose()),
};
