// Sending a route table row a request: its query, its body as JSON, raw text, a form or a URL-encoded form, and headers.
import type { Route } from "~/server/rest/route.ts";
import type { RestResponse } from "./rest-client.ts";
import type { TestApp } from "./test-app.ts";

export type RouteInput = {
  query?: Record<string, string | string[]>;
  /** A JSON body, or raw text sent as application/json when a string in `rawJson`. */
  body?: unknown;
  rawJson?: string;
  /** A multipart form: text fields, and files given as { file: contents }. */
  form?: Record<string, string | { file: string }>;
  /** An application/x-www-form-urlencoded body (OAuth2's token endpoints). */
  urlencoded?: Record<string, string>;
  headers?: Record<string, string>;
};

const BOUNDARY = "----guildhall-route-test";

function multipart(form: Record<string, string | { file: string }>): string {
  const parts = Object.entries(form).map(([name, value]) =>
    typeof value === "string"
      ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
      : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.csv"\r\nContent-Type: text/csv\r\n\r\n${value.file}\r\n`,
  );
  return `${parts.join("")}--${BOUNDARY}--\r\n`;
}

/** Sends `input` to the row's method at `path` (filled), as `authorization` (none when undefined). */
export function sendRoute(app: TestApp, route: Route, path: string, authorization: string | undefined, input: RouteInput): Promise<RestResponse> {
  const headers: Record<string, string> = { ...input.headers };
  let rawBody: string | undefined;
  if (input.form) {
    headers["content-type"] = `multipart/form-data; boundary=${BOUNDARY}`;
    rawBody = multipart(input.form);
  } else if (input.urlencoded) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    rawBody = new URLSearchParams(input.urlencoded).toString();
  } else if (input.rawJson !== undefined) {
    headers["content-type"] = "application/json";
    rawBody = input.rawJson;
  } else if (input.body !== undefined) {
    headers["content-type"] = "application/json";
    rawBody = JSON.stringify(input.body);
  }
  // A GET carries no body.
  if (route.method === "GET") rawBody = undefined;
  const api = app.as(authorization);
  const options = { query: input.query, headers, rawBody };
  switch (route.method) {
    case "GET":
      return api.get(path, options);
    case "DELETE":
      return api.delete(path, options);
    case "POST":
      return api.post(path, undefined, options);
    case "PUT":
      return api.put(path, undefined, options);
    case "PATCH":
      return api.patch(path, undefined, options);
  }
}
