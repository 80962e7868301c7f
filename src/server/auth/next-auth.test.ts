import { afterEach, describe, expect, it, vi } from "vitest";

/** The dashboard's next-auth options as a process with this environment builds them. */
async function optionsWith(environment: Record<string, string | undefined>) {
  vi.resetModules();
  vi.stubEnv("NEXTAUTH_SECRET", "a test secret that is long enough to sign with");
  vi.stubEnv("NEXTAUTH_URL", undefined);
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  const { getAuthOptions } = await import("./next-auth.ts");
  return getAuthOptions();
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("session cookies", () => {
  it("are Secure when the public address is https (behind a TLS-terminating proxy)", async () => {
    expect((await optionsWith({ PUBLIC_BASE_URL: "https://guildhall.example" })).useSecureCookies).toBe(true);
    expect((await optionsWith({ PUBLIC_BASE_URL: "http://127.0.0.1:3000", NEXTAUTH_URL: "https://guildhall.example" })).useSecureCookies).toBe(true);
  });

  it("are not over plain http, where a Secure cookie would never come back", async () => {
    expect((await optionsWith({ PUBLIC_BASE_URL: "http://127.0.0.1:3000" })).useSecureCookies).toBe(false);
  });
});
