import { z } from "zod";

/** PATCH /applications/@me: of the platform's fields, `flags` (the limited intents) so far. */
export const ZApplicationModifyBodySchema = z.object({ flags: z.number().int().min(0).optional() });
