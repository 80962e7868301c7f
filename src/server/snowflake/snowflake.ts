import { DiscordSnowflake } from "@sapphire/snowflake";
import { z } from "zod";

/** A new id on the platform epoch (2015-01-01T00:00:00Z). */
export function newId(): string {
  return DiscordSnowflake.generate().toString();
}

/** The first and last ids a moment can have: every id made at `time` lies between them. */
export function idRangeAt(time: Date): { first: string; last: string } {
  return {
    first: DiscordSnowflake.generate({ timestamp: time, increment: 0n, workerId: 0n, processId: 0n }).toString(),
    last: DiscordSnowflake.generate({ timestamp: time, increment: 4095n, workerId: 31n, processId: 31n }).toString(),
  };
}

export function snowflakeTimestamp(id: string): Date {
  return new Date(Number(DiscordSnowflake.timestampFrom(id)));
}

// The platform's form: no leading zeros (its description's pattern), so an id is spelled one way only.
export const ZSnowflakeSchema = z.string().regex(/^(0|[1-9][0-9]{0,19})$/, "Value is not snowflake.");

export function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}
