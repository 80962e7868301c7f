import { ChannelFlags } from "discord-api-types/v10";
import type { Channel } from "~/generated/prisma/client.ts";
import { parseTags } from "~/server/channels/channel.dto.ts";
import { ApiError, invalidField } from "~/server/errors.ts";

/** What the tag rules read of a forum or media channel. */
export type TaggedParent = Pick<Channel, "availableTags" | "flags">;

/** Tags applied to a post must be the channel's own (50035 on the first stranger); repeats count once. */
export function checkKnownTags(parent: TaggedParent, tagIds: readonly string[]): string[] {
  const known = new Set(parseTags(parent.availableTags).map((tag) => tag.id));
  tagIds.forEach((tagId, index) => {
    if (!known.has(tagId)) throw invalidField(["applied_tags", index], "BASE_TYPE_CHOICES", "Not a tag of the parent channel.");
  });
  return [...new Set(tagIds)];
}

/** Moderated tags are added and removed only by those who manage threads (50013). */
export function checkModeratedTags(parent: TaggedParent, before: readonly string[], after: readonly string[], canManage: boolean): void {
  if (canManage) return;
  const moderated = new Set(
    parseTags(parent.availableTags)
      .filter((tag) => tag.moderated)
      .map((tag) => tag.id),
  );
  const old = new Set(before);
  const next = new Set(after);
  const touched = [...old].filter((tagId) => !next.has(tagId)).concat([...next].filter((tagId) => !old.has(tagId)));
  if (touched.some((tagId) => moderated.has(tagId))) throw new ApiError("MISSING_PERMISSIONS");
}

/**
 * The tags a new post starts with: the channel's own, moderated ones only for those who
 * manage threads, and at least one where the channel sets REQUIRE_TAG (40067).
 */
export function checkNewPostTags(parent: TaggedParent, tagIds: readonly string[] | null | undefined, canManage: boolean): string[] {
  const tags = checkKnownTags(parent, tagIds ?? []);
  checkModeratedTags(parent, [], tags, canManage);
  if (tags.length === 0 && (parent.flags & ChannelFlags.RequireTag) !== 0) throw new ApiError("TAG_REQUIRED");
  return tags;
}
