import { randomBytes } from "node:crypto";
import { createUser } from "~/server/applications/application.service.ts";
import { dashboardActor } from "~/server/auth/actor.ts";
import { createDb, type Db } from "~/server/db/client.ts";
import { createGuild } from "~/server/guilds/guild.service.ts";
import { E2E_DATABASE_URL, E2E_PASSWORD } from "./e2e-env.ts";

let db: Db | undefined;

/** The run's database, opened once per process. */
export function e2eDb(): Db {
  db ??= createDb(E2E_DATABASE_URL);
  return db;
}

export function uniqueName(prefix: string): string {
  return `${prefix} ${randomBytes(3).toString("hex")}`;
}

/** A dashboard user who owns a new guild, made through the services as the CLI would. */
export async function seedOwner(label: string) {
  const suffix = `${Date.now()}-${randomBytes(3).toString("hex")}`;
  const email = `${label}-${suffix}@example.test`;
  const user = await createUser(e2eDb(), { username: label.replace(/[^a-z0-9_.]/g, "_"), globalName: "E2E Owner", email, password: E2E_PASSWORD });
  const guild = await createGuild({ db: e2eDb(), actor: dashboardActor(user.id) }, { name: uniqueName("Guild") });
  return { user, email, password: E2E_PASSWORD, guild };
}
