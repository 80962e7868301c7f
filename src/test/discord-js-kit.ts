import { Client, Events, type ClientEvents, type ClientOptions } from "discord.js";
import type { ServerProcess } from "./server-process.ts";

// Real discord.js clients against a real server process (server.ts on the test database): the
// helpers the discord.js integration files share. A file starts the process itself with
// startServerProcess, so vitest.config.ts reads off the file that it runs isolated.

/** How long any one event may take to arrive: wide for a loaded CI machine, never a sleep. */
const EVENT_CEILING_MS = 15_000;

/** The next `event` the client emits for which `matches` holds; rejects past the ceiling. */
export function nextEvent<E extends keyof ClientEvents>(
  client: Client,
  event: E,
  matches: (...args: ClientEvents[E]) => boolean = () => true,
): Promise<ClientEvents[E]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      client.off(event, listener);
      reject(new Error(`no ${event} within ${EVENT_CEILING_MS} ms`));
    }, EVENT_CEILING_MS);
    const listener = (...args: ClientEvents[E]) => {
      if (!matches(...args)) return;
      clearTimeout(timer);
      client.off(event, listener);
      resolve(args);
    };
    client.on(event, listener);
  });
}

/**
 * Every `event` the client emits from now until `stop()`, which returns them. To show that an
 * event never came, stop only once the client has emitted a later event: a session's events
 * arrive in order, so one on its way would have come first.
 */
export function collectEvents<E extends keyof ClientEvents>(
  client: Client,
  event: E,
  matches: (...args: ClientEvents[E]) => boolean = () => true,
): { stop(): ClientEvents[E][] } {
  const seen: ClientEvents[E][] = [];
  const listener = (...args: ClientEvents[E]) => {
    if (matches(...args)) seen.push(args);
  };
  client.on(event, listener);
  return {
    stop() {
      client.off(event, listener);
      return seen;
    },
  };
}

export type DiscordJsServer = {
  origin: string;
  /** A REST call through the server with a bot token, as another bot makes it; throws unless 2xx. */
  rest<T = unknown>(token: string, method: string, path: string, body?: unknown): Promise<T>;
  /** A discord.js client logged in to the server, resolved once it is ready (READY and every GUILD_CREATE). */
  login(token: string, options: Omit<ClientOptions, "rest">): Promise<Client>;
  /** Destroys every client logged in, then stops the server. */
  stop(): Promise<void>;
};

/** discord.js clients and REST calls against `server`, started by the caller. */
export function discordJsServer(server: ServerProcess): DiscordJsServer {
  const clients: Client[] = [];
  return {
    origin: server.origin,
    async rest<T>(token: string, method: string, path: string, body?: unknown): Promise<T> {
      const res = await fetch(`${server.origin}/api/v10${path}`, {
        method,
        headers: { authorization: `Bot ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
      return (res.status === 204 ? undefined : await res.json()) as T;
    },
    async login(token, options) {
      // The server's CDN too, so image URLs discord.js builds (emoji.imageURL()) point at it.
      const client = new Client({ ...options, rest: { api: `${server.origin}/api`, cdn: `${server.origin}/cdn` } });
      clients.push(client);
      const ready = nextEvent(client, Events.ClientReady);
      await client.login(token);
      await ready;
      return client;
    },
    async stop() {
      for (const client of clients) await client.destroy();
      await server.stop();
    },
  };
}
