export type DbProvider = "sqlite" | "postgresql";

const DEFAULT_DATABASE_URL = "file:./data/guildhall.db";

export function databaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL;
}

export function providerFromUrl(url: string): DbProvider {
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  if (url.startsWith("file:")) return "sqlite";
  throw new Error(`DATABASE_URL must be a file: or postgres:// URL, got ${url.split(":")[0]}:`);
}
