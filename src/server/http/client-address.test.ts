import { describe, expect, it } from "vitest";
import { clientAddress, parseTrustedProxies } from "./client-address.ts";

describe("the caller's address", () => {
  it("is the peer's, whatever X-Forwarded-For says, unless the peer is a trusted proxy", () => {
    expect(clientAddress("198.51.100.7", "203.0.113.1", null)).toBe("198.51.100.7");
    expect(clientAddress("198.51.100.7", "203.0.113.1", parseTrustedProxies("10.0.0.0/8"))).toBe("198.51.100.7");
    expect(clientAddress("10.1.2.3", null, parseTrustedProxies("10.0.0.0/8"))).toBe("10.1.2.3");
    expect(clientAddress(null, "203.0.113.1", parseTrustedProxies("10.0.0.0/8"))).toBeNull();
  });

  it("from a trusted proxy is the right-most forwarded address that is not a trusted proxy", () => {
    const trusted = parseTrustedProxies("10.0.0.0/8, 192.0.2.5, fd00::/8");
    // The client wrote the left-most entry itself; the proxies appended the rest.
    expect(clientAddress("10.0.0.1", "1.2.3.4, 203.0.113.9", trusted)).toBe("203.0.113.9");
    expect(clientAddress("10.0.0.1", "1.2.3.4, 203.0.113.9, 192.0.2.5, 10.9.9.9", trusted)).toBe("203.0.113.9");
    expect(clientAddress("fd12::1", "2001:db8::7", trusted)).toBe("2001:db8::7");
    // An IPv4 peer on a dual-stack socket.
    expect(clientAddress("::ffff:10.0.0.1", "203.0.113.9", trusted)).toBe("203.0.113.9");
    // Every hop a proxy: the left-most is as far as anyone can tell.
    expect(clientAddress("10.0.0.1", "10.0.0.2, 10.0.0.3", trusted)).toBe("10.0.0.2");
  });

  it("trusts no one by default, and refuses a setting that is not addresses and ranges", () => {
    expect(parseTrustedProxies("")).toBeNull();
    expect(parseTrustedProxies(" , ")).toBeNull();
    for (const bad of ["localhost", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/8/8", "::1/129", "10.0.0.0/x"]) {
      expect(() => parseTrustedProxies(bad), bad).toThrow(/TRUSTED_PROXIES/);
    }
  });
});
