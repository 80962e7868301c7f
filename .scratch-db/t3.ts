import { readFile } from "node:fs/promises";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as rt from "@prisma/schema-engine-wasm/schema_engine_bg";
import { SCHEMA_ENGINE_WASM, schemaFor, SCHEMA_PATH } from "../src/server/db/generate.ts";

const { instance } = await WebAssembly.instantiate(await readFile(SCHEMA_ENGINE_WASM), { "./schema_engine_bg.js": rt as any });
rt.__wbg_set_wasm(instance.exports);
(instance.exports.__wbindgen_start as any)();
const provider = process.argv[2] as "sqlite" | "postgresql";
const MAIN = "postgresql://root@127.0.0.1:5432/guildhall_tooltest";
function pool(url: string) {
  const p = new pg.Pool({ connectionString: url });
  const q = p.query.bind(p) as any;
  (p as any).query = async (...a: any[]) => { const r = await q(...a); for (const f of r.fields ?? []) if (f.dataTypeID === 18) f.dataTypeID = 25; return r; };
  return p;
}
function wrapScript(a: any) {
  const er = a.executeRaw.bind(a);
  a.executeRaw = async (q: any) => (q.args.length === 0 ? (await a.executeScript(q.sql), 0) : er(q));
  return a;
}
const factory: any = provider === "sqlite"
  ? { provider: "sqlite", adapterName: "x", connect: () => new PrismaBetterSqlite3({ url: ":memory:" }).connect(), connectToShadowDb: async () => wrapScript(await new PrismaBetterSqlite3({ url: ":memory:" }).connect()) }
  : { provider: "postgres", adapterName: "x", connect: () => new PrismaPg(pool(MAIN), { disposeExternalPool: true }).connect(),
      connectToShadowDb: async () => {
        const admin = await new PrismaPg(pool(MAIN), { disposeExternalPool: true }).connect();
        const name = `shadow_${randomUUID().replaceAll("-", "")}`;
        await admin.executeScript(`CREATE DATABASE "${name}"`);
        const u = new URL(MAIN); u.pathname = "/" + name;
        const s: any = await new PrismaPg(pool(u.href), { disposeExternalPool: true }).connect();
        const d = s.dispose.bind(s);
        s.dispose = async () => { console.log("shadow dispose"); await d(); await admin.executeScript(`DROP DATABASE "${name}"`); await admin.dispose(); };
        return s;
      } };
const adapter = bindMigrationAwareSqlAdapterFactory(factory);
const engine = await rt.SchemaEngine.new({ datamodels: undefined }, () => {}, adapter);
const files = [{ path: SCHEMA_PATH, content: schemaFor(provider) }];
const f = { externalTables: [], externalEnums: [] };
const r = await engine.diff({ from: { tag: "empty" }, to: { tag: "schemaDatamodel", files }, script: true, exitCode: true, filters: f });
const list = { baseDir: "/tmp/nonexist", lockfile: { path: "migration_lock.toml", content: `provider = "${provider}"\n` }, shadowDbInitScript: "", migrationDirectories: [{ path: "20250101000000_init", migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: r.stdout! } } }] };
for (const ml of [ { ...list, migrationDirectories: [] }, list ]) {
try {
  const r2 = await engine.diff({ from: { tag: "migrations", ...ml }, to: { tag: "schemaDatamodel", files }, script: true, exitCode: true, filters: f });
  console.log("from migrations:", JSON.stringify(r2).slice(0, 200));
} catch (e) { console.log("ERR", (e as Error).message.slice(0,300)); const m = /External error id#(\d+)/.exec((e as Error).message); if (m) console.log("REG", adapter.errorRegistry.consumeError(Number(m[1]))); }
}
engine.free();
