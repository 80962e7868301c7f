import { readFile, mkdir, writeFile } from "node:fs/promises";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as rt from "@prisma/schema-engine-wasm/schema_engine_bg";
import { SCHEMA_ENGINE_WASM, schemaFor, SCHEMA_PATH } from "../src/server/db/generate.ts";

const { instance } = await WebAssembly.instantiate(await readFile(SCHEMA_ENGINE_WASM), { "./schema_engine_bg.js": rt as any });
rt.__wbg_set_wasm(instance.exports);
(instance.exports.__wbindgen_start as any)();
const provider = process.argv[2] as "sqlite" | "postgresql";
const base = provider === "sqlite" ? new PrismaBetterSqlite3({ url: ":memory:" }) : new PrismaPg({ connectionString: "postgresql://root@127.0.0.1:5432/guildhall_tooltest" });
const adapter = bindMigrationAwareSqlAdapterFactory(base);
const engine = await rt.SchemaEngine.new({ datamodels: undefined }, (m: string) => console.log("LOG", m), adapter);
const files = [{ path: SCHEMA_PATH, content: schemaFor(provider) }];
const f = { externalTables: [], externalEnums: [] };
const r = await engine.diff({ from: { tag: "empty" }, to: { tag: "schemaDatamodel", files }, script: true, exitCode: true, filters: f });
const dir = `/tmp/mig-${provider}`;
await mkdir(`${dir}/20250101000000_init`, { recursive: true });
await writeFile(`${dir}/20250101000000_init/migration.sql`, r.stdout!);
const list = { baseDir: dir, lockfile: { path: "migration_lock.toml", content: `provider = "${provider}"\n` }, shadowDbInitScript: "", migrationDirectories: [{ path: "20250101000000_init", migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: r.stdout! } } }] };
try {
  const r2 = await engine.diff({ from: { tag: "migrations", ...list }, to: { tag: "schemaDatamodel", files }, script: true, exitCode: true, filters: f });
  console.log("from migrations:", JSON.stringify(r2).slice(0, 300));
} catch (e) { console.log("ERR", (e as Error).message.slice(0,300)); const m = /External error id#(\d+)/.exec((e as Error).message); if (m) console.log("REG", adapter.errorRegistry.consumeError(Number(m[1]))); }
engine.free();
