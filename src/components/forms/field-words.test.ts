import { describe, expect, it } from "vitest";
import { ZGuildEmojiModifyBodySchema } from "~/server/emojis/emoji.schema.ts";
import { ZOnboardingBodySchema } from "~/server/guild-config/onboarding.schema.ts";
import { ZWelcomeScreenBodySchema } from "~/server/guild-config/guild-config.schema.ts";
import { ZGuildModifyBodySchema } from "~/server/guilds/guild.schema.ts";
import { fieldSentence } from "./field-words.ts";
import { bodyValidator } from "./save-feedback.ts";

const path = (text: string) => text.split(".");

describe("a field error in words", () => {
  it("asks for a channel where an id is missing, naming the row it belongs to", () => {
    const error = { code: "BASE_TYPE_INVALID", message: "Value is not snowflake." };
    expect(fieldSentence(path("welcome_channels.0.channel_id"), error, "")).toBe("Choose a channel for each row.");
    expect(fieldSentence(path("rules_channel_id"), error, "x")).toBe("Choose a rules channel.");
    expect(fieldSentence(path("prompts.1.options.0.role_ids.2"), error)).toBe("Choose a role for each answer.");
  });

  it("says what is missing rather than the length rule when the field is empty", () => {
    const error = { code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 1 and 50 in length." };
    expect(fieldSentence(path("prompts.0.options.1.title"), error, "  ")).toBe("Each answer needs a title.");
    expect(fieldSentence(path("prompts.0.title"), { ...error, message: "Must be between 1 and 100 in length." }, "")).toBe("Each question needs a title.");
    expect(fieldSentence(path("name"), { ...error, message: "Must be between 2 and 100 in length." }, "")).toBe("Name is required.");
  });

  it("names the limit when the value is too short or too long", () => {
    const error = { code: "BASE_TYPE_BAD_LENGTH", message: "Must be between 2 and 100 in length." };
    expect(fieldSentence(path("name"), error, "x")).toBe("Name needs at least 2 characters.");
    expect(fieldSentence(path("name"), error, "x".repeat(101))).toBe("Name can have at most 100 characters.");
    // The service's own answer, without the value sent: both bounds.
    expect(fieldSentence(path("name"), error)).toBe("Name needs 2 to 100 characters.");
    expect(fieldSentence(path("nick"), { code: "BASE_TYPE_MAX_LENGTH", message: "Must be 32 or fewer in length." })).toBe(
      "Nickname can have at most 32 characters.",
    );
  });

  it("counts the items of a list", () => {
    const error = { code: "BASE_TYPE_MIN_LENGTH", message: "Must be 1 or more in length." };
    expect(fieldSentence(path("prompts.0.options"), error, [])).toBe("Each question needs at least one answer.");
    expect(fieldSentence(path("role_ids"), { code: "BASE_TYPE_MAX_LENGTH", message: "Must be 250 or fewer in length." })).toBe("Choose at most 250 roles.");
  });

  it("reads numbers, choices and repeats", () => {
    expect(fieldSentence(path("max_age"), { code: "NUMBER_TYPE_MAX", message: "int value should be less than or equal to 604800." })).toBe(
      "Max age must be at most 604800.",
    );
    expect(fieldSentence(path("verification_level"), { code: "BASE_TYPE_CHOICES", message: "Value must be one of {0, 1, 2, 3, 4}." })).toBe(
      "Choose one of the listed options for the verification level.",
    );
    expect(fieldSentence(path("default_channel_ids.3"), { code: "BASE_TYPE_DUPLICATE", message: "Each id once." })).toBe(
      "Each default channel can be chosen only once.",
    );
  });

  it("keeps a message the service already wrote for people", () => {
    const error = { code: "GUILD_FEATURE_REQUIRED", message: "Needs the Banner feature, which this guild doesn't have." };
    expect(fieldSentence(path("banner"), error)).toBe(error.message);
  });
});

describe("a form's own validation", () => {
  it("speaks the same words as the service, on the field's path", () => {
    const validate = bodyValidator(ZOnboardingBodySchema);
    const option = { id: "0", title: "", channel_ids: [], role_ids: [] };
    expect(validate({ prompts: [{ id: "0", title: "Pick a team", options: [option] }] })).toEqual({
      "prompts.0.options.0.title": "Each answer needs a title.",
    });
    expect(bodyValidator(ZWelcomeScreenBodySchema)({ welcome_channels: [{ channel_id: "", description: "Say hi" }] })).toEqual({
      "welcome_channels.0.channel_id": "Choose a channel for each row.",
    });
    expect(bodyValidator(ZGuildModifyBodySchema)({ name: "Fine" })).toEqual({});
    expect(bodyValidator(ZGuildEmojiModifyBodySchema)({ name: "party-parrot" })).toEqual({ name: "Name can have only letters, numbers and underscores." });
  });
});
