import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals } from "../options.ts";

export const seed: CliCommand = {
  words: ["seed"],
  summary: "Add the demo users, guild and bot (safe to run again)",
  async run(args) {
    noPositionals(args, "seed");
    const { seedDemo } = await import("~/server/seed/demo-seed.ts");
    const demo = await withDatabase(seedDemo);
    console.log(demo.created.length ? `Created: ${demo.created.join(", ")}.` : "The demo data already exists; nothing was added.");
    console.log("");
    console.log(`Sign in as       ${demo.user.email} / ${demo.user.password}   (user ${demo.user.id})`);
    console.log(`Second user      ${demo.friend.email} / ${demo.friend.password}   (user ${demo.friend.id})`);
    console.log(`Guild            ${demo.guild.name}   (${demo.guild.id})`);
    console.log(`Application      ${demo.application.name}   (${demo.application.id}, bot user ${demo.application.botUserId})`);
    if (demo.botToken) {
      console.log(`Bot token        ${demo.botToken}`);
      console.log("                 Shown once: only a hash is stored.");
    } else {
      console.log("Bot token        shown when the application was created; for a new one run");
      console.log(`                 npm run cli -- app token --app ${demo.application.id}`);
    }
  },
};
