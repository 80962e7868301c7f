import type { HttpHandler } from "~/server/http/http-types.ts";

/**
 * Sent with every REST answer. Its bodies (JSON, a CSV file, a PNG) are read as the type
 * they name, and opened in a browser they may load nothing and sit in no frame.
 */
export const REST_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
};

/** `handler` with `headers` on each answer (a header the handler set itself wins). */
export function withHeaders(handler: HttpHandler, headers: Readonly<Record<string, string>>): HttpHandler {
  return async (request) => {
    const response = await handler(request);
    return { ...response, headers: { ...headers, ...response.headers } };
  };
}
