import { describe, expect, it } from "vitest";
import type { HttpRequest } from "~/server/http/http-types.ts";
import { REST_SECURITY_HEADERS, withHeaders } from "./security-headers.ts";

const request = { method: "GET", url: "/api/v10/gateway" } as HttpRequest;

describe("withHeaders", () => {
  it("adds the REST security headers to every answer, keeping the handler's own", async () => {
    const handler = withHeaders(
      () => Promise.resolve({ status: 200, headers: { "content-type": "text/csv", "content-disposition": "attachment" }, body: "a,b" }),
      REST_SECURITY_HEADERS,
    );
    const response = await handler(request);
    expect(response).toEqual({
      status: 200,
      headers: {
        "content-type": "text/csv",
        "content-disposition": "attachment",
        "x-content-type-options": "nosniff",
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      },
      body: "a,b",
    });
  });

  it("lets a handler's header win over a default", async () => {
    const handler = withHeaders(() => Promise.resolve({ status: 204, headers: { "content-security-policy": "sandbox" }, body: null }), REST_SECURITY_HEADERS);
    expect((await handler(request)).headers["content-security-policy"]).toBe("sandbox");
  });
});
