import { readFile } from "node:fs/promises";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as rt from "@prisma/schema-engine-wasm/schema_engine_bg";
import { SCHEMA_ENGINE_WASM, schemaFor, SCHEMA_PATH } from "../src/server/db/generate.ts";

const { instance } = await WebAssembly.instantiate(await readFile(SCHEMA_ENGINE_WASM), { "./schema_engine_bg.js": rt as any });
rt.__wbg_set_wasm(instance.exports);
(instance.exports.__wbindgen_start as any)();

function wrap(f: any, label: string) {
  return {
    provider: f.provider, adapterName: f.adapterName,
    connect: async () => { console.log(label, "connect"); const a = await f.connect(); const d = a.dispose.bind(a); a.dispose = async () => { console.log(label, "dispose"); return d(); }; return a; },
    connectToShadowDb: async () => { console.log(label, "shadow"); const a = await f.connectToShadowDb(); const d = a.dispose.bind(a); a.dispose = async () => { console.log(label, "shadow dispose"); return d(); }; return a; },
  };
}
const provider = process.argv[2] as "sqlite" | "postgresql";
const base = provider === "sqlite" ? new PrismaBetterSqlite3({ url: ":memory:" }) : new PrismaPg({ connectionString: "postgresql://root@127.0.0.1:5432/postgres" });
const adapter = bindMigrationAwareSqlAdapterFactory(wrap(base, provider) as any);
const engine = await rt.SchemaEngine.new({ datamodels: undefined }, (m: string) => console.log("LOG", m), adapter);
const r = await engine.diff({ from: { tag: "empty" }, to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schemaFor(provider) }] }, script: true, exitCode: true, filters: { externalTables: [], externalEnums: [] } });
console.log(r.exitCode, r.stdout?.slice(0, 300));
const r2 = await engine.diff({ from: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schemaFor(provider) }] }, to: { tag: "schemaDatamodel", files: [{ path: SCHEMA_PATH, content: schemaFor(provider) }] }, script: true, exitCode: true, filters: { externalTables: [], externalEnums: [] } });
console.log(JSON.stringify(r2));
engine.free();
console.log("freed");
