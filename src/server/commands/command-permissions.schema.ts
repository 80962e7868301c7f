import { ApplicationCommandPermissionType } from "discord-api-types/v10";
import { z } from "zod";
import { ZSnowflakeSchema } from "~/server/validation/fields.ts";

/** PUT …/commands/{command}/permissions: the whole new list (its count and targets are checked by commandPermissionsListError). */
export const ZCommandPermissionsBodySchema = z.object({
  permissions: z.array(
    z.object({
      id: ZSnowflakeSchema,
      type: z.enum(ApplicationCommandPermissionType),
      permission: z.boolean(),
    }),
  ),
});
