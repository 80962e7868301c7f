import { DiscordSnowflake } from "@sapphire/snowflake";
import { z } from "zod";

/** A new id on the platform epoch (2015-01-01T00:00:00Z). */
export function newId(): string {
  return DiscordSnowflake.generate().toString();
}

export function snowflakeTimestamp(id: string): Date {
  return new Date(Number(DiscordSnowflake.timestampFrom(id)));
}

export const ZSnowflake = z.string().regex(/^\d{1,20}$/, "Value is not snowflake.");

export function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
