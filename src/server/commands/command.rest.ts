import { z } from "zod";
import { created, noContent, ok, route, type Route } from "~/server/rest/route.ts";
import { ZQueryBooleanSchema } from "~/server/validation/fields.ts";
import { requestLocale } from "./command.dto.ts";
import { createCommand, deleteCommand, editCommand, getCommand, listCommands, overwriteCommands } from "./command-registry.service.ts";
import { getCommandPermissions, listCommandPermissions, setCommandPermissions } from "./command-permissions.service.ts";
import { ZCommandPermissionsBodySchema } from "./command-permissions.schema.ts";
import {
  ZGlobalCommandBodySchema,
  ZGlobalCommandBulkBodySchema,
  ZGlobalCommandEditBodySchema,
  ZGuildCommandBodySchema,
  ZGuildCommandBulkBodySchema,
  ZGuildCommandEditBodySchema,
  type TCommandBody,
  type TCommandBulkItem,
  type TCommandEditBody,
} from "./command.schema.ts";

const ZCommandListQuerySchema = z.object({ with_localizations: ZQueryBooleanSchema.optional() });

// A bot token of the application, or its client-credentials Bearer token with the scope.
const BY_APPLICATION = { auth: "any", scopes: ["applications.commands.update"] } as const;

const GLOBAL = "/applications/:applicationId/commands";
const GUILD = "/applications/:applicationId/guilds/:guildId/commands";

/** One registry's six rows (list, create, bulk overwrite, get, edit, delete), with its scope's body schemas. */
function registryRoutes(
  base: typeof GLOBAL | typeof GUILD,
  bodies: { create: z.ZodType<TCommandBody>; bulk: z.ZodType<TCommandBulkItem[]>; edit: z.ZodType<TCommandEditBody> },
): Route[] {
  const one = `${base}/:commandId` as const;
  return [
    route({
      method: "GET",
      path: base,
      ...BY_APPLICATION,
      query: ZCommandListQuerySchema,
      handler: async ({ ctx, params, query, header }) =>
        ok(await listCommands(ctx, { ...params, withLocalizations: query.with_localizations ?? false, locale: requestLocale(header) })),
    }),
    route({
      method: "POST",
      path: base,
      ...BY_APPLICATION,
      body: bodies.create,
      handler: async ({ ctx, params, body }) => {
        const { command, created: isNew } = await createCommand(ctx, { ...params, body });
        return isNew ? created(command) : ok(command);
      },
    }),
    route({
      method: "PUT",
      path: base,
      ...BY_APPLICATION,
      body: bodies.bulk,
      handler: async ({ ctx, params, body }) => ok(await overwriteCommands(ctx, { ...params, body })),
    }),
    route({ method: "GET", path: one, ...BY_APPLICATION, handler: async ({ ctx, params }) => ok(await getCommand(ctx, params)) }),
    route({
      method: "PATCH",
      path: one,
      ...BY_APPLICATION,
      body: bodies.edit,
      handler: async ({ ctx, params, body }) => ok(await editCommand(ctx, { ...params, body })),
    }),
    route({
      method: "DELETE",
      path: one,
      ...BY_APPLICATION,
      handler: async ({ ctx, params }) => {
        await deleteCommand(ctx, params);
        return noContent();
      },
    }),
  ];
}

export const commandRoutes: Route[] = [
  ...registryRoutes(GLOBAL, { create: ZGlobalCommandBodySchema, bulk: ZGlobalCommandBulkBodySchema, edit: ZGlobalCommandEditBodySchema }),
  ...registryRoutes(GUILD, { create: ZGuildCommandBodySchema, bulk: ZGuildCommandBulkBodySchema, edit: ZGuildCommandEditBodySchema }),
  route({
    method: "GET",
    path: `${GUILD}/permissions`,
    auth: "any",
    scopes: ["applications.commands.permissions.update"],
    handler: async ({ ctx, params }) => ok(await listCommandPermissions(ctx, params)),
  }),
  route({
    method: "GET",
    path: `${GUILD}/:commandId/permissions`,
    auth: "any",
    scopes: ["applications.commands.permissions.update"],
    handler: async ({ ctx, params }) => ok(await getCommandPermissions(ctx, params)),
  }),
  route({
    method: "PUT",
    path: `${GUILD}/:commandId/permissions`,
    // Any token reaches the decision, which refuses a bot's as the platform does (20001).
    auth: "any",
    scopes: ["applications.commands.permissions.update"],
    body: ZCommandPermissionsBodySchema,
    handler: async ({ ctx, params, body }) => ok(await setCommandPermissions(ctx, { ...params, permissions: body.permissions })),
  }),
];
