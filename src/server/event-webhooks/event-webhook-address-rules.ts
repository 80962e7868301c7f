// Where event webhooks may be sent, as pure rules. An application's owner chooses the URL, so
// without them the server would POST (and answer whether something listens) anywhere it can
// reach: its own loopback, the private network it runs in, a cloud's metadata address. The
// table follows IANA's special-purpose address registries; an address in none is public.
import { BlockList, isIP } from "node:net";
import { addAddressRange, ipFamily } from "~/server/http/address-range.ts";

/** Why an address is refused. */
export type AddressDenial = "unspecified" | "loopback" | "private" | "shared" | "link-local" | "unique-local" | "multicast" | "broadcast" | "reserved";

/** IPv4 ranges, each also refused in the IPv6 forms that carry an IPv4 address (ipv4Embeddings). */
const IPV4_RANGES: readonly (readonly [AddressDenial, readonly string[]])[] = [
  ["unspecified", ["0.0.0.0/8"]],
  ["loopback", ["127.0.0.0/8"]],
  ["private", ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"]],
  // Carrier-grade NAT (RFC 6598): the provider's network, not the Internet.
  ["shared", ["100.64.0.0/10"]],
  ["link-local", ["169.254.0.0/16"]],
  ["multicast", ["224.0.0.0/4"]],
  ["broadcast", ["255.255.255.255/32"]],
  // Protocol assignments, documentation, the 6to4 relay, benchmarking, and the rest of 240/4.
  ["reserved", ["192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "240.0.0.0/4"]],
];

/** IPv6 ranges: the two single addresses first, so `::1` is not read as IPv4-compatible 0.0.0.1. */
const IPV6_FIRST: readonly (readonly [AddressDenial, readonly string[]])[] = [
  ["unspecified", ["::/128"]],
  ["loopback", ["::1/128"]],
];
const IPV6_RANGES: readonly (readonly [AddressDenial, readonly string[]])[] = [
  ["link-local", ["fe80::/10"]],
  ["unique-local", ["fc00::/7"]],
  ["multicast", ["ff00::/8"]],
  // The rest of IPv4-compatible and -translated space, local-use NAT64 (RFC 8215), discard-only,
  // IETF protocol assignments (Teredo, ORCHID, benchmarking), documentation, SRv6, and the
  // deprecated site-local space.
  ["reserved", ["::/96", "::ffff:0:0:0/96", "64:ff9b:1::/48", "100::/64", "2001::/23", "2001:db8::/32", "3fff::/20", "5f00::/16", "fec0::/10"]],
];

/**
 * The IPv6 forms of an IPv4 range `a.b.c.d/n`, which reach (or are treated as) that IPv4
 * address: IPv4-mapped (::ffff:0:0/96), IPv4-compatible (::/96), NAT64's well-known prefix
 * (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16, the address in bits 16 to 47).
 */
function ipv4Embeddings(range: string): string[] {
  const [address = "", prefix = "32"] = range.split("/");
  const bits = Number(prefix);
  const [a = 0, b = 0, c = 0, d = 0] = address.split(".").map(Number);
  const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
  return [`::ffff:${address}/${96 + bits}`, `::${address}/${96 + bits}`, `64:ff9b::${address}/${96 + bits}`, `2002:${hex(a, b)}:${hex(c, d)}::/${16 + bits}`];
}

function blockListOf(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) if (!addAddressRange(list, range)) throw new Error(`Not an address range: ${range}`);
  return list;
}

/** Checked in order; the first that holds the address names why it is refused. */
const TABLE: readonly (readonly [AddressDenial, BlockList])[] = [
  ...IPV6_FIRST.map(([denial, ranges]) => [denial, blockListOf(ranges)] as const),
  ...IPV4_RANGES.map(([denial, ranges]) => [denial, blockListOf([...ranges, ...ranges.flatMap(ipv4Embeddings)])] as const),
  ...IPV6_RANGES.map(([denial, ranges]) => [denial, blockListOf(ranges)] as const),
];

/** Why an event webhook may not be sent to this IP address, or null when it is public. */
export function addressDenial(address: string): AddressDenial | "not-an-address" | null {
  if (!isIP(address)) return "not-an-address";
  const family = ipFamily(address);
  return TABLE.find(([, list]) => list.check(address, family))?.[0] ?? null;
}

/**
 * What an operator lets event webhooks reach beyond public addresses: URL host names (whatever
 * they resolve to), addresses and CIDR ranges (EVENT_WEBHOOK_ALLOWED_HOSTS), and loopback in
 * test mode, where a bot's tests run their receiver on the same machine.
 */
export type DestinationAllowance = { names: ReadonlySet<string>; addresses: BlockList; loopback: boolean };

/**
 * EVENT_WEBHOOK_ALLOWED_HOSTS: comma-separated host names, addresses and CIDR ranges
 * (`hooks.internal, 10.20.0.0/16`). An entry that is none of them throws, so a typo stops the
 * server at start.
 */
export function parseDestinationAllowance(list: string, options: { loopback: boolean }): DestinationAllowance {
  const names = new Set<string>();
  const addresses = new BlockList();
  for (const entry of list.split(",").map((part) => part.trim().toLowerCase())) {
    if (!entry || addAddressRange(addresses, entry)) continue;
    if (!isHostName(entry)) throw new Error(`EVENT_WEBHOOK_ALLOWED_HOSTS: "${entry}" is not a host name, an IP address or a CIDR range`);
    names.add(hostNameOf(entry));
  }
  return { names, addresses, loopback: options.loopback };
}

/** A host name as URL parsing leaves it (a domain, not an address in any number form). */
function isHostName(entry: string): boolean {
  if (!/^[a-z0-9.-]+$/.test(entry)) return false;
  try {
    const host = new URL(`http://${entry}/`).hostname;
    return host === entry && !isIP(host);
  } catch {
    return false;
  }
}

/** Names compare without the root's trailing dot (`localhost.` is `localhost`). */
function hostNameOf(name: string): string {
  return name.replace(/\.$/, "");
}

/**
 * Whether an event webhook may go to `host` (a URL's host name, as URL parsing normalised it,
 * brackets removed) at `addresses` (what it resolved to; the address itself for an IP
 * literal): allowed when the operator allows the name, or when every address is public, in an
 * allowed range, or loopback in test mode. Answers the first refused address's reason, or null.
 */
export function destinationDenial(host: string, addresses: readonly string[], allowance: DestinationAllowance): AddressDenial | "not-an-address" | null {
  if (allowance.names.has(hostNameOf(host))) return null;
  if (addresses.length === 0) return "not-an-address";
  for (const address of addresses) {
    if (isIP(address) && allowance.addresses.check(address, ipFamily(address))) continue;
    const denial = addressDenial(address);
    if (denial === "loopback" && allowance.loopback) continue;
    if (denial) return denial;
  }
  return null;
}
