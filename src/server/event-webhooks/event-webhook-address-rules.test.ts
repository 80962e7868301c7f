import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressDenial, destinationDenial, parseDestinationAllowance } from "./event-webhook-address-rules.ts";

/** A URL's host as the destination check reads it: after WHATWG parsing, brackets removed. */
const hostOf = (url: string) => new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");

describe("the event webhook address rule", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "shared"],
    ["100.127.255.255", "shared"],
    ["169.254.169.254", "link-local"],
    ["fe80::1", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456::1", "unique-local"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["192.0.2.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["64:ff9b:1::a00:1", "reserved"],
    ["fec0::1", "reserved"],
    // IPv4 inside IPv6: mapped, compatible, NAT64 and 6to4 forms are the IPv4 address they carry.
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.1.2.3", "private"],
    ["::127.0.0.1", "loopback"],
    ["::a9fe:a9fe", "link-local"],
    ["64:ff9b::7f00:1", "loopback"],
    ["64:ff9b::169.254.169.254", "link-local"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:c0a8:101::", "private"],
  ])("refuses %s (%s)", (address, denial) => {
    expect(addressDenial(address)).toBe(denial);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "11.0.0.1",
    "100.63.255.255",
    "100.128.0.0",
    "169.253.255.255",
    "172.15.255.255",
    "172.32.0.0",
    "192.169.0.1",
    "223.255.255.255",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("allows the public address %s", (address) => {
    expect(addressDenial(address)).toBeNull();
  });

  it("checks every number form of an IPv4 literal as URL parsing normalises it", () => {
    for (const url of [
      "http://2130706433/",
      "http://0x7f000001/",
      "http://127.1/",
      "http://017700000001/",
      "http://127.0.0.1./",
      "http://[::ffff:127.0.0.1]/",
    ]) {
      expect(addressDenial(hostOf(url)), url).toBe("loopback");
    }
    expect(addressDenial(hostOf("http://0/"))).toBe("unspecified");
    expect(addressDenial(hostOf("http://[::1]:8080/"))).toBe("loopback");
    expect(addressDenial(hostOf("http://0xa9.0376.43518/"))).toBe("link-local");
  });

  it("refuses what is not an address", () => {
    expect(addressDenial("localhost")).toBe("not-an-address");
    expect(addressDenial("")).toBe("not-an-address");
  });

  it("gives the IPv6 forms that carry an IPv4 address the IPv4 address's answer (mapped, NAT64, 6to4)", () => {
    const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
    fc.assert(
      fc.property(ipv4, ([a, b, c, d]) => {
        const dotted = `${a}.${b}.${c}.${d}`;
        const hex = `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
        const expected = addressDenial(dotted);
        expect(addressDenial(`::ffff:${dotted}`)).toBe(expected);
        expect(addressDenial(`64:ff9b::${hex}`)).toBe(expected);
        expect(addressDenial(`2002:${hex}::1`)).toBe(expected);
        // IPv4-compatible addresses (deprecated by RFC 4291) are refused even for a public one;
        // ::1 and :: are themselves, not 0.0.0.1 and 0.0.0.0.
        if (a > 0) expect(addressDenial(`::${dotted}`)).toBe(expected ?? "reserved");
      }),
    );
  });
});

describe("event webhook destinations", () => {
  const none = parseDestinationAllowance("", { loopback: false });

  it("allows a name only when every address it resolves to is allowed", () => {
    expect(destinationDenial("hooks.example.com", ["93.184.215.14", "2606:2800:21f:cb07:6820:80da:af6b:8b2c"], none)).toBeNull();
    expect(destinationDenial("hooks.example.com", ["93.184.215.14", "10.0.0.5"], none)).toBe("private");
    expect(destinationDenial("localhost", ["127.0.0.1", "::1"], none)).toBe("loopback");
    expect(destinationDenial("hooks.example.com", [], none)).toBe("not-an-address");
  });

  it("allows loopback, and only loopback, in test mode", () => {
    const testMode = parseDestinationAllowance("", { loopback: true });
    expect(destinationDenial("localhost", ["127.0.0.1", "::1"], testMode)).toBeNull();
    expect(destinationDenial("::ffff:7f00:1", ["::ffff:7f00:1"], testMode)).toBeNull();
    expect(destinationDenial("10.0.0.1", ["10.0.0.1"], testMode)).toBe("private");
    expect(destinationDenial("0.0.0.0", ["0.0.0.0"], testMode)).toBe("unspecified");
  });

  it("allows what the operator lists: names whatever they resolve to, addresses and ranges", () => {
    const allowed = parseDestinationAllowance(" hooks.internal , 10.20.0.0/16, 127.0.0.1, fd00::/8 ,", { loopback: false });
    expect(destinationDenial("hooks.internal", ["10.99.0.1"], allowed)).toBeNull();
    expect(destinationDenial("hooks.internal.", ["10.99.0.1"], allowed)).toBeNull();
    expect(destinationDenial("other.internal", ["10.20.3.4"], allowed)).toBeNull();
    expect(destinationDenial("other.internal", ["10.21.0.1"], allowed)).toBe("private");
    expect(destinationDenial("127.0.0.1", ["127.0.0.1"], allowed)).toBeNull();
    expect(destinationDenial("::ffff:127.0.0.1", ["::ffff:127.0.0.1"], allowed)).toBeNull();
    expect(destinationDenial("127.0.0.2", ["127.0.0.2"], allowed)).toBe("loopback");
    expect(destinationDenial("fd00::1", ["fd00::1"], allowed)).toBeNull();
  });

  it("refuses a setting entry that is no host name, address or range", () => {
    for (const bad of ["http://hooks.internal", "10.0.0.0/33", "hooks internal", "127.1", "2130706433", "::1/129", "hooks.internal:8080"]) {
      expect(() => parseDestinationAllowance(bad, { loopback: false }), bad).toThrow(/EVENT_WEBHOOK_ALLOWED_HOSTS/);
    }
  });
});
