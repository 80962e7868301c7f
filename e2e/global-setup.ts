import { seedOwner } from "./seed.ts";

/** One signed-up user with a guild, in the fresh database the server started on (e2e/fresh-database.ts). */
export default async function globalSetup(): Promise<void> {
  const owner = await seedOwner("e2e-owner");
  // Workers inherit the environment: tests read the seeded account from here.
  process.env.E2E_OWNER_EMAIL = owner.email;
  process.env.E2E_OWNER_GUILD_ID = owner.guild.id;
  process.env.E2E_OWNER_GUILD_NAME = owner.guild.name;
}
