// What a gateway command is. Its own module, apart from the table that lists the commands,
// so that each command's file can use it without importing the table that imports them.
import type { z } from "zod";
import type { Db } from "~/server/db/client.ts";
import type { GatewaySessionView } from "./gateway-types.ts";

/** What a client command runs with: its session, and a way to answer on its own connection. */
export type CommandContext = {
  db: Db;
  view: GatewaySessionView;
  now: () => Date;
  /**
   * Sends a dispatch to this connection only, numbered as the session's next. It is not stored
   * in the outbox, so a RESUME does not replay it.
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
export function defineCommand<T>(shape: z.ZodType<T>, run: (context: CommandContext, payload: T) => Promise<void>): GatewayCommand {
  return { shape, run: (context, payload) => run(context, payload as T) };
}
