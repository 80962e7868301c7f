import type { CliCommand } from "../command.ts";
import { withDatabase } from "../database.ts";
import { noPositionals } from "../options.ts";
import { print } from "../cli-output.ts";

export const seed: CliCommand = {
  words: ["seed"],
  summary: "Add the demo users, guild and bot (safe to run again)",
  async run(args) {
    noPositionals(args, "seed");
    const { seedDemo } = await import("~/server/seed/demo-seed.ts");
    const demo = await withDatabase(seedDemo);
    print(demo.created.length ? `Created: ${demo.created.join(", ")}.` : "The demo data already exists; nothing was added.");
    print("");
    print(`Sign in as       ${demo.user.email} / ${demo.user.password}   (user ${demo.user.id})`);
    print(`Second user      ${demo.friend.email} / ${demo.friend.password}   (user ${demo.friend.id})`);
    print(`Guild            ${demo.guild.name}   (${demo.guild.id})`);
    print(`Application      ${demo.application.name}   (${demo.application.id}, bot user ${demo.application.botUserId})`);
    if (demo.botToken) {
      print(`Bot token        ${demo.botToken}`);
      print("                 Shown once: only a hash is stored.");
    } else {
      print("Bot token        shown when the application was created; for a new one run");
      print(`                 npm run cli -- app token --app ${demo.application.id}`);
    }
  },
};
