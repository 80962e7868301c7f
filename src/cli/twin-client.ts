import type { ParseArgsConfig } from "node:util";
import type { CliArgs } from "./command.ts";
import { optionalString } from "./options.ts";
import { print } from "./cli-output.ts";

/** Where every twin command finds the running twin: --url and --token, or GUILDHALL_TWIN_URL and GUILDHALL_TWIN_TOKEN. */
export const TWIN_OPTIONS: NonNullable<ParseArgsConfig["options"]> = { url: { type: "string" }, token: { type: "string" }, json: { type: "boolean" } };
export const TWIN_USAGE = "[--url TWIN_URL] [--token TOKEN] [--json]";

/**
 * Calls the twin namespace of a running Guildhall in test mode (a twin's state lives in its
 * process, so the CLI asks it over HTTP). Answers the JSON body; a refusal throws with the
 * service's message, so the CLI prints it and exits 1.
 */
export async function callTwin(args: CliArgs, method: string, path: string, body?: unknown): Promise<unknown> {
  const base = (optionalString(args, "url") ?? process.env.GUILDHALL_TWIN_URL ?? "http://127.0.0.1:3000/api/v10/__twin").replace(/\/+$/, "");
  const token = optionalString(args, "token") ?? process.env.GUILDHALL_TWIN_TOKEN;
  if (!token) throw new Error("The twin's admin token is needed: --token TOKEN or GUILDHALL_TWIN_TOKEN (a twin prints it as twin_token)");
  let response: Response;
  try {
    response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Twin ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new Error(`No twin answered at ${base} (is a server running in test mode?)`, { cause: error });
  }
  const text = await response.text();
  const answer: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    const { message, errors } = (answer ?? {}) as { message?: unknown; errors?: unknown };
    const fields = fieldErrors(errors).map((line) => `\n  ${line}`);
    throw new Error(
      `${response.status}: ${typeof message === "string" ? message : text}${message === "404: Not Found" ? " (is test mode on at this address?)" : ""}${fields.join("")}`,
    );
  }
  return answer;
}

/** An invalid body's field errors (50035's tree) as "field: message" lines, so the CLI says what to fix. */
function fieldErrors(tree: unknown, path = ""): string[] {
  if (typeof tree !== "object" || tree === null) return [];
  return Object.entries(tree).flatMap(([key, value]): string[] =>
    key === "_errors" && Array.isArray(value)
      ? value.map((error: { message?: unknown }) => `${path || "body"}: ${String(error.message)}`)
      : fieldErrors(value, path ? `${path}.${key}` : key),
  );
}

/** Prints an answer: JSON with --json, else indented JSON a person can read. */
export function printAnswer(args: CliArgs, answer: unknown): void {
  print(args.values.json ? JSON.stringify(answer) : JSON.stringify(answer, null, 2));
}
