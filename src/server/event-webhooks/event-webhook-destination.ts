// Reaching an event webhook URL: its host is resolved once, every address checked
// (event-webhook-address-rules.ts), and the connection made to the checked address itself, so
// a name that resolves elsewhere a moment later (DNS rebinding) changes nothing. The Host
// header and TLS's server name stay the URL's host. The answer is read a few KiB at most.
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP } from "node:net";
import { destinationDenial, parseDestinationAllowance, type DestinationAllowance } from "./event-webhook-address-rules.ts";

/** Resolves a host name to its addresses (node's getaddrinfo by default; tests count calls). */
type Lookup = (hostname: string) => Promise<readonly { address: string }[]>;

/** Where this process sends event webhooks: what it allows, and how it resolves names. */
export type EventWebhookDestinations = { allowance: DestinationAllowance; lookup: Lookup };

/** The runtime's destinations: EVENT_WEBHOOK_ALLOWED_HOSTS, loopback too in test mode. */
export function createEventWebhookDestinations(options: { allowedHosts: string; allowLoopback: boolean; lookup?: Lookup }): EventWebhookDestinations {
  return {
    allowance: parseDestinationAllowance(options.allowedHosts, { loopback: options.allowLoopback }),
    lookup: options.lookup ?? ((hostname) => dnsLookup(hostname, { all: true })),
  };
}

/** A URL whose host was resolved and checked: connections go to `address`. */
export type Destination = { url: URL; address: string };

/** The answer's body is not needed (a PING's must be empty): this much is read, then the connection is cut. */
const ANSWER_BYTES_READ = 4 * 1024;

/** An answer: its status, and how much body came (counted up to just past ANSWER_BYTES_READ). */
export type Answer = { status: number; bodyBytes: number };

/** Rejects when `signal` aborts, so a lookup that cannot be cancelled still ends in time. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new Error("aborted"));
    if (signal.aborted) abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * Resolves and checks `rawUrl`'s host: the destination to connect to, or null when the URL
 * cannot be parsed, the name does not resolve in time, or any address it resolves to is
 * refused. URL parsing has already turned every number form of an IPv4 address (2130706433,
 * 0x7f000001, 127.1) into dotted decimal, so a literal is checked as the address it is.
 */
export async function resolveDestination(rawUrl: string, destinations: EventWebhookDestinations, signal: AbortSignal): Promise<Destination | null> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await abortable(destinations.lookup(host), signal)).map((entry) => entry.address);
  } catch {
    return null;
  }
  if (destinationDenial(host, addresses, destinations.allowance) !== null) return null;
  return { url, address: addresses[0]! };
}

/**
 * POSTs `body` to a checked destination, connecting to its address (no lookup is made: the
 * host given to node is an IP address). Redirects are never followed. Answers the status and
 * the body's size, read at most ANSWER_BYTES_READ and never kept; null when no complete
 * answer came before `signal` aborted or the connection failed.
 */
export function postToDestination(
  destination: Destination,
  request: { headers: Record<string, string>; body: string; signal: AbortSignal },
): Promise<Answer | null> {
  const { url, address } = destination;
  const isHttps = url.protocol === "https:";
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Answer | null) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    const outgoing = (isHttps ? httpsRequest : httpRequest)({
      host: address,
      port: url.port || (isHttps ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...request.headers, Host: url.host, "Content-Length": String(Buffer.byteLength(request.body)) },
      // Certificates are checked against the URL's host; an IP literal sends no SNI (RFC 6066).
      ...(isHttps && !isIP(host) && { servername: host }),
      agent: false,
      signal: request.signal,
    });
    outgoing.on("error", () => settle(null));
    outgoing.on("response", (answer: IncomingMessage) => readBounded(answer, settle));
    outgoing.end(request.body);
  });
}

/** Counts the answer's body without keeping it, and cuts the connection once past the bound. */
function readBounded(answer: IncomingMessage, settle: (answer: Answer | null) => void): void {
  const status = answer.statusCode ?? 0;
  let bodyBytes = 0;
  answer.on("data", (chunk: Buffer) => {
    bodyBytes += chunk.length;
    if (bodyBytes <= ANSWER_BYTES_READ) return;
    settle({ status, bodyBytes });
    answer.destroy();
  });
  answer.on("end", () => settle({ status, bodyBytes }));
  // Closed before its end (cut off, or the signal aborted): no complete answer.
  answer.on("close", () => settle(null));
  answer.on("error", () => settle(null));
}
