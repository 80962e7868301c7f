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
