import { ChannelType } from "discord-api-types/v10";
import { describe, expect, it } from "vitest";
import { fromZodError } from "~/server/errors.ts";
import {
  fieldAppliesTo,
  MAX_AVAILABLE_TAGS,
  MAX_PERMISSION_OVERWRITES,
  ZChannelCreateBodySchema,
  ZChannelModifyBodySchema,
  ZChannelPositionsBodySchema,
} from "./channel.schema.ts";

/** The platform's field error code for `field` when `body` is parsed as a create body. */
function createError(body: unknown, field: string): string | undefined {
  const result = ZChannelCreateBodySchema.safeParse(body);
  if (result.success) return undefined;
  const tree = fromZodError(result.error, body).errors as Record<string, { _errors?: { code: string }[] }>;
  return tree[field]?._errors?.[0]?.code;
}

describe("channel create body", () => {
  it("requires a name of 1 to 100 characters", () => {
    expect(createError({}, "name")).toBe("BASE_TYPE_REQUIRED");
    expect(createError({ name: "" }, "name")).toBe("BASE_TYPE_BAD_LENGTH");
    expect(createError({ name: "   " }, "name")).toBe("BASE_TYPE_BAD_LENGTH");
    expect(createError({ name: "x".repeat(101) }, "name")).toBe("BASE_TYPE_BAD_LENGTH");
    expect(ZChannelCreateBodySchema.parse({ name: "x".repeat(100) }).name).toHaveLength(100);
    expect(ZChannelCreateBodySchema.parse({ name: " a " }).name).toBe("a");
  });

  it("accepts only guild channel types", () => {
    for (const type of [
      ChannelType.GuildText,
      ChannelType.GuildVoice,
      ChannelType.GuildCategory,
      ChannelType.GuildAnnouncement,
      ChannelType.GuildStageVoice,
      ChannelType.GuildForum,
      ChannelType.GuildMedia,
    ]) {
      expect(createError({ name: "c", type }, "type")).toBeUndefined();
    }
    for (const type of [
      ChannelType.DM,
      ChannelType.GroupDM,
      ChannelType.PublicThread,
      ChannelType.PrivateThread,
      ChannelType.AnnouncementThread,
      ChannelType.GuildDirectory,
    ]) {
      expect(createError({ name: "c", type }, "type")).toBe("BASE_TYPE_CHOICES");
    }
  });

  it("bounds slowmode, bitrate, user limit and the topic's longest form", () => {
    expect(createError({ name: "c", rate_limit_per_user: 21600 }, "rate_limit_per_user")).toBeUndefined();
    expect(createError({ name: "c", rate_limit_per_user: 21601 }, "rate_limit_per_user")).toBe("NUMBER_TYPE_MAX");
    expect(createError({ name: "c", rate_limit_per_user: -1 }, "rate_limit_per_user")).toBe("NUMBER_TYPE_MIN");
    expect(createError({ name: "c", bitrate: 7999 }, "bitrate")).toBe("NUMBER_TYPE_MIN");
    expect(createError({ name: "c", bitrate: 8000 }, "bitrate")).toBeUndefined();
    expect(createError({ name: "c", user_limit: 10001 }, "user_limit")).toBe("NUMBER_TYPE_MAX");
    expect(createError({ name: "c", topic: "x".repeat(1025) }, "topic")).toBe("BASE_TYPE_BAD_LENGTH");
    expect(createError({ name: "c", default_thread_rate_limit_per_user: 21601 }, "default_thread_rate_limit_per_user")).toBe("NUMBER_TYPE_MAX");
  });

  it("limits the enumerated fields to their values", () => {
    expect(createError({ name: "c", video_quality_mode: 3 }, "video_quality_mode")).toBe("BASE_TYPE_CHOICES");
    expect(createError({ name: "c", default_auto_archive_duration: 120 }, "default_auto_archive_duration")).toBe("BASE_TYPE_CHOICES");
    expect(createError({ name: "c", default_auto_archive_duration: 4320 }, "default_auto_archive_duration")).toBeUndefined();
    expect(createError({ name: "c", default_sort_order: 2 }, "default_sort_order")).toBe("BASE_TYPE_CHOICES");
    expect(createError({ name: "c", default_forum_layout: 3 }, "default_forum_layout")).toBe("BASE_TYPE_CHOICES");
  });

  it("caps tags and overwrites", () => {
    const tags = Array.from({ length: MAX_AVAILABLE_TAGS + 1 }, (_, i) => ({ name: `t${i}` }));
    expect(createError({ name: "c", available_tags: tags }, "available_tags")).toBe("BASE_TYPE_MAX_LENGTH");
    const overwrites = Array.from({ length: MAX_PERMISSION_OVERWRITES + 1 }, (_, i) => ({ id: String(i + 1), type: 0 }));
    expect(createError({ name: "c", permission_overwrites: overwrites }, "permission_overwrites")).toBe("BASE_TYPE_MAX_LENGTH");
  });

  it("reads overwrite permissions as strings or integers, with omitted and null meaning none", () => {
    const body = ZChannelCreateBodySchema.parse({
      name: "c",
      permission_overwrites: [
        { id: "1", type: 0 },
        { id: "2", type: 1, allow: null, deny: null },
        { id: "3", allow: "1024", deny: 2048 },
        { id: "4", type: 0, allow: "281474976710656" },
      ],
    });
    expect(body.permission_overwrites).toEqual([
      { id: "1", type: 0, allow: 0n, deny: 0n },
      { id: "2", type: 1, allow: 0n, deny: 0n },
      { id: "3", allow: 1024n, deny: 2048n },
      { id: "4", type: 0, allow: 1n << 48n, deny: 0n },
    ]);
    expect(ZChannelCreateBodySchema.safeParse({ name: "c", permission_overwrites: [{ id: "1", type: 2 }] }).success).toBe(false);
    expect(ZChannelCreateBodySchema.safeParse({ name: "c", permission_overwrites: [{ id: "1", allow: "-1" }] }).success).toBe(false);
  });
});

describe("channel modify and positions bodies", () => {
  it("keeps undefined (leave) apart from null (reset)", () => {
    expect(ZChannelModifyBodySchema.parse({})).toEqual({});
    expect(ZChannelModifyBodySchema.parse({ topic: null, parent_id: null })).toEqual({ topic: null, parent_id: null });
    expect(ZChannelModifyBodySchema.safeParse({ name: null }).success).toBe(false);
  });

  it("needs an id on every position row", () => {
    expect(ZChannelPositionsBodySchema.safeParse([{ id: "1", position: 2, parent_id: null, lock_permissions: true }]).success).toBe(true);
    expect(ZChannelPositionsBodySchema.safeParse([{ position: 2 }]).success).toBe(false);
    expect(ZChannelPositionsBodySchema.safeParse([{ id: "1", position: -1 }]).success).toBe(false);
    expect(ZChannelPositionsBodySchema.safeParse([{ id: "1", position: 2 ** 31 }]).success).toBe(false);
  });
});

describe("fields per channel type (spec 4.4)", () => {
  it("matches the table", () => {
    expect(fieldAppliesTo("topic", ChannelType.GuildVoice)).toBe(false);
    expect(fieldAppliesTo("topic", ChannelType.GuildForum)).toBe(true);
    expect(fieldAppliesTo("bitrate", ChannelType.GuildStageVoice)).toBe(true);
    expect(fieldAppliesTo("bitrate", ChannelType.GuildText)).toBe(false);
    expect(fieldAppliesTo("rate_limit_per_user", ChannelType.GuildAnnouncement)).toBe(false);
    expect(fieldAppliesTo("parent_id", ChannelType.GuildCategory)).toBe(false);
    expect(fieldAppliesTo("default_forum_layout", ChannelType.GuildMedia)).toBe(false);
    expect(fieldAppliesTo("flags", ChannelType.GuildStageVoice)).toBe(false);
  });
});
