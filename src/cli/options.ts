import type { z } from "zod";
import type { CliArgs } from "./command.ts";

export function optionalString(args: CliArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === "string" ? value : undefined;
}

export function requiredString(args: CliArgs, name: string): string {
  const value = optionalString(args, name)?.trim();
  if (!value) throw new Error(`Missing --${name}`);
  return value;
}

export function optionalPositiveInt(args: CliArgs, name: string): number | undefined {
  const value = optionalString(args, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new Error(`--${name} must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function noPositionals(args: CliArgs, usage: string): void {
  if (args.positionals.length > 0) throw new Error(`Unexpected ${JSON.stringify(args.positionals.join(" "))}. Usage: ${usage}`);
}

/**
 * Parses options gathered under the service's field names; a refusal names the option:
 * the field's in `options` (`{ user_id: "user" }`), else the field's own (`account_id` → --account-id).
 */
export function parseOptions<S extends z.ZodType>(schema: S, input: Record<string, unknown>, options: Record<string, string> = {}): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const optionOf = (field: string) => options[field] ?? field.replaceAll("_", "-");
  const problems = result.error.issues.map((issue) => `--${optionOf(String(issue.path[0] ?? "?"))}: ${issue.message}`);
  throw new Error(problems.join("\n"));
}
