import { isIP, type BlockList } from "node:net";

/** The BlockList family name of an IP address (isIP already said it is one). */
export const ipFamily = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");

/**
 * Adds one setting entry, an IP address or a CIDR range (`10.0.0.0/8`, `::1`), to `list`.
 * Answers false, adding nothing, when the entry is neither: settings that take addresses
 * (TRUSTED_PROXIES, EVENT_WEBHOOK_ALLOWED_HOSTS) refuse it at start.
 */
export function addAddressRange(list: BlockList, entry: string): boolean {
  const [address = "", prefix, ...extra] = entry.split("/");
  const bits = prefix === undefined ? null : Number(prefix);
  const max = isIP(address) === 6 ? 128 : 32;
  if (!isIP(address) || extra.length > 0 || (bits !== null && (!/^\d+$/.test(prefix!) || bits > max))) return false;
  if (bits === null) list.addAddress(address, ipFamily(address));
  else list.addSubnet(address, bits, ipFamily(address));
  return true;
}
