import "dotenv/config";
import { defineConfig } from "prisma/config";

const url = process.env.DATABASE_URL ?? "file:./data/guildhall.db";
const provider = /^postgres(ql)?:/.test(url) ? "postgresql" : "sqlite";

// Lets the real Prisma CLI (`prisma migrate deploy`) apply the same per-provider migrations.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: `prisma/migrations/${provider}` },
  datasource: { url },
});
