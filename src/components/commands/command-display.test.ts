import { describe, expect, it } from "vitest";
import { commandLabel, contextsText, defaultPermissionsText, optionLines } from "./command-display.ts";

describe("command display", () => {
  it("names a slash command as members type it, a context menu command by its name", () => {
    expect(commandLabel({ type: 1, name: "ban" })).toBe("/ban");
    expect(commandLabel({ type: 3, name: "Report message" })).toBe("Report message");
  });

  it("puts arguments on one line, and each subcommand (in its group) on its own", () => {
    expect(optionLines(undefined)).toEqual([]);
    expect(
      optionLines([
        { type: 6, name: "user", required: true },
        { type: 3, name: "reason" },
      ]),
    ).toEqual(["user: User, reason: Text (optional)"]);
    expect(
      optionLines([
        { type: 1, name: "add", options: [{ type: 6, name: "user", required: true }] },
        { type: 2, name: "config", options: [{ type: 1, name: "reset" }] },
      ]),
    ).toEqual(["add — user: User", "config reset"]);
  });

  it("says who may use a command by default, and where", () => {
    expect(defaultPermissionsText(null)).toBe("Everyone");
    expect(defaultPermissionsText("0")).toBe("Administrators only");
    expect(defaultPermissionsText(String(2 + 4))).toBe("Kick members, Ban members");
    expect(contextsText({ guild_id: "1" })).toBe("This guild");
    expect(contextsText({ contexts: null })).toBe("Guilds, Bot DMs, Private channels");
    expect(contextsText({ contexts: [0] })).toBe("Guilds");
  });
});
