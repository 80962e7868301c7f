import type { Emoji } from "~/generated/prisma/client.ts";
import type { ServiceContext } from "~/server/context.ts";
import { ApiError, invalidField } from "~/server/errors.ts";
import { runChange } from "~/server/events/change.ts";
import { removeStoredFiles } from "~/server/images/file-removal.ts";
import { storeFileAt } from "~/server/images/image.service.ts";
import { newId } from "~/server/snowflake/snowflake.ts";
import { emojiImagePath, toEmojiObject, type EmojiObject } from "./emoji.dto.ts";
import { decodeEmojiImage } from "./emoji-images.ts";
import type { TApplicationEmojiCreateBody, TApplicationEmojiModifyBody } from "./emoji.schema.ts";
import { uploadersOf } from "./emoji.service.ts";
import { APPLICATION_EMOJI_MAX } from "./expression-rules.ts";

// Application emojis belong to one application, usable by its bot anywhere; no guild hears of
// them, so their changes send no gateway event and leave no audit entry, as on the platform.

/** Only the application's own bot reaches its emojis (50001 for any other caller). */
function ownApplication(ctx: ServiceContext, applicationId: string): string {
  if (ctx.actor.applicationId !== applicationId) throw new ApiError("MISSING_ACCESS");
  return applicationId;
}

async function withUploaders(ctx: ServiceContext, rows: readonly Emoji[]): Promise<EmojiObject[]> {
  const uploaders = await uploadersOf(ctx.db, rows);
  return rows.map((row) => toEmojiObject(row, null, row.userId ? uploaders.get(row.userId) : undefined));
}

async function findApplicationEmoji(ctx: ServiceContext, applicationId: string, emojiId: string): Promise<Emoji> {
  const row = await ctx.db.emoji.findFirst({ where: { id: emojiId, applicationId } });
  if (!row) throw new ApiError("UNKNOWN_EMOJI");
  return row;
}

/** GET /applications/{application.id}/emojis: `{ items }`, as the platform answers. */
export async function listApplicationEmojis(ctx: ServiceContext, input: { applicationId: string }): Promise<{ items: EmojiObject[] }> {
  const applicationId = ownApplication(ctx, input.applicationId);
  const rows = await ctx.db.emoji.findMany({ where: { applicationId }, orderBy: { id: "asc" } });
  return { items: await withUploaders(ctx, rows) };
}

/** GET /applications/{application.id}/emojis/{emoji.id}. */
export async function getApplicationEmoji(ctx: ServiceContext, input: { applicationId: string; emojiId: string }): Promise<EmojiObject> {
  const row = await findApplicationEmoji(ctx, ownApplication(ctx, input.applicationId), input.emojiId);
  return (await withUploaders(ctx, [row]))[0]!;
}

/** POST /applications/{application.id}/emojis: at most APPLICATION_EMOJI_MAX (30008); a name is the application's once. */
export async function createApplicationEmoji(ctx: ServiceContext, input: { applicationId: string; body: TApplicationEmojiCreateBody }): Promise<EmojiObject> {
  const applicationId = ownApplication(ctx, input.applicationId);
  const image = decodeEmojiImage(input.body.image);
  const row = await runChange(ctx, async ({ tx }) => {
    if ((await tx.emoji.count({ where: { applicationId } })) >= APPLICATION_EMOJI_MAX) throw new ApiError("MAX_EMOJIS");
    if (await tx.emoji.findFirst({ where: { applicationId, name: input.body.name }, select: { id: true } })) throw nameTaken();
    const id = newId();
    const path = emojiImagePath(id);
    await storeFileAt(tx, path, image);
    return tx.emoji.create({ data: { id, applicationId, name: input.body.name, animated: image.animated, userId: ctx.actor.userId, image: path } });
  });
  return (await withUploaders(ctx, [row]))[0]!;
}

/** PATCH /applications/{application.id}/emojis/{emoji.id}: its name only. */
export async function modifyApplicationEmoji(
  ctx: ServiceContext,
  input: { applicationId: string; emojiId: string; body: TApplicationEmojiModifyBody },
): Promise<EmojiObject> {
  const applicationId = ownApplication(ctx, input.applicationId);
  const current = await findApplicationEmoji(ctx, applicationId, input.emojiId);
  const row = await runChange(ctx, async ({ tx }) => {
    const clash = await tx.emoji.findFirst({ where: { applicationId, name: input.body.name, id: { not: current.id } }, select: { id: true } });
    if (clash) throw nameTaken();
    const [updated] = await tx.emoji.updateManyAndReturn({ where: { id: current.id, applicationId }, data: { name: input.body.name } });
    if (!updated) throw new ApiError("UNKNOWN_EMOJI");
    return updated;
  });
  return (await withUploaders(ctx, [row]))[0]!;
}

/** DELETE /applications/{application.id}/emojis/{emoji.id}: its image goes with it. */
export async function deleteApplicationEmoji(ctx: ServiceContext, input: { applicationId: string; emojiId: string }): Promise<void> {
  const applicationId = ownApplication(ctx, input.applicationId);
  const current = await findApplicationEmoji(ctx, applicationId, input.emojiId);
  await runChange(ctx, async (change) => {
    const { count } = await change.tx.emoji.deleteMany({ where: { id: current.id, applicationId } });
    if (count === 0) throw new ApiError("UNKNOWN_EMOJI");
    await removeStoredFiles(change, [current.image]);
  });
}

function nameTaken(): ApiError {
  return invalidField(["name"], "APPLICATION_EMOJI_NAME_ALREADY_TAKEN", "Emoji name already taken.");
}
