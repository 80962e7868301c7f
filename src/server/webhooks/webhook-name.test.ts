import { describe, expect, it } from "vitest";
import { ZWebhookNameSchema } from "./webhook.schema.ts";
import { webhookNameProblem } from "./webhook-name.ts";

const codeOf = (name: string) => webhookNameProblem(name)?.code ?? null;

describe("webhook names", () => {
  it("refuses names with nothing visible", () => {
    for (const name of [
      "\u200b",
      "\u200b\u200c\u200d\u2060",
      "\u3164",
      "\u115f\u1160",
      "\uffa0",
      "\u2800",
      "\ufe0f",
      "\u202e\u202d",
      "\u00ad",
      "\udb40\udc20",
      "\u200b \u3164",
    ]) {
      expect(codeOf(name), JSON.stringify(name)).toBe("BASE_TYPE_BAD_LENGTH");
    }
  });

  it("refuses the reserved words written with look-alike letters, accents or invisible characters", () => {
    for (const name of [
      "dіscord", // Cyrillic і
      "DISCОRD", // Cyrillic О
      "ԁiѕсоrd",
      "ｄｉｓｃｏｒｄ",
      "𝐝𝐢𝐬𝐜𝐨𝐫𝐝",
      "ⓓⓘⓢⓒⓞⓡⓓ",
      "dïscörd",
      "dis\u200bcord",
      "disc\u00adord",
      "d1sc0rd",
      "cIyde", // capital i for l
      "c|yde",
      "ᴄʟʏᴅᴇ",
      "сlуdе", // Cyrillic с, у, е
      "my c\u034Flyde bot",
    ]) {
      expect(codeOf(name), name).toBe("USERNAME_INVALID_CONTAINS");
    }
  });

  it("keeps ordinary names in any script", () => {
    for (const name of [
      "Deploy bot",
      "Déjà vu",
      "Ünïcödé",
      "Модератор",
      "通知",
      "Σύνδεσμος",
      "disco rd",
      "cloudy",
      "0xdeadbeef",
      "x".repeat(80),
      "emoji 🎉 hook",
    ]) {
      expect(codeOf(name), name).toBeNull();
    }
    expect(codeOf("x".repeat(81))).toBe("BASE_TYPE_BAD_LENGTH");
  });

  it("is the rule of the shared schema, which names the word it found", () => {
    const result = ZWebhookNameSchema.safeParse("  Dіscord   updates ");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('Username cannot contain "discord"');
    expect(ZWebhookNameSchema.parse("  Build   status ")).toBe("Build status");
  });
});
