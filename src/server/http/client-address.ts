import { BlockList, isIP } from "node:net";
import { addAddressRange, ipFamily } from "./address-range.ts";

/** The proxies whose X-Forwarded-For is believed (TRUSTED_PROXIES); null: none. */
export type TrustedProxies = BlockList | null;

/**
 * TRUSTED_PROXIES: comma-separated addresses and CIDR ranges (`10.0.0.0/8, ::1`). An entry
 * that is neither throws, so a typo stops the server at start rather than trusting nothing.
 */
export function parseTrustedProxies(list: string): TrustedProxies {
  const entries = list
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const trusted = new BlockList();
  for (const entry of entries) {
    if (!addAddressRange(trusted, entry)) throw new Error(`TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
  }
  return trusted;
}

const isTrusted = (trusted: BlockList, address: string) => isIP(address) !== 0 && trusted.check(address, ipFamily(address));

/**
 * Who is calling, for the limits of unauthenticated callers. The peer, unless it is a trusted
 * proxy: then X-Forwarded-For read from the right (each proxy appends the address it heard
 * from), skipping trusted proxies; the first other address is the client. Addresses further
 * left were written by the client and are never believed.
 */
export function clientAddress(peer: string | null, forwardedFor: string | null, trusted: TrustedProxies): string | null {
  if (!peer || !trusted || !forwardedFor || !isTrusted(trusted, peer)) return peer;
  const hops = forwardedFor
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    client = hops[i]!;
    if (!isTrusted(trusted, client)) break;
  }
  return client;
}
