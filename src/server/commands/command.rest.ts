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
} from "./command.schema.ts";

const ZCommandListQuerySchema = z.object({ with_localizations: ZQueryBooleanSchema.optional() });

// A bot token of the application, or its client-credentials Bearer token with the scope.
const BY_APPLICATION = { auth: "any", scopes: ["applications.commands.update"] } as const;

const GLOBAL = "/applications/:applicationId/commands";
const GUILD = "/applications/:applicationId/guilds/:guildId/commands";

export const commandRoutes: Route[] = [
  route({
    method: "GET",
    path: GLOBAL,
    ...BY_APPLICATION,
    query: ZCommandListQuerySchema,
    handler: async ({ ctx, params, query, header }) =>
      ok(await listCommands(ctx, { ...params, withLocalizations: query.with_localizations ?? false, locale: requestLocale(header) })),
  }),
  route({
    method: "POST",
    path: GLOBAL,
    ...BY_APPLICATION,
    body: ZGlobalCommandBodySchema,
    handler: async ({ ctx, params, body }) => {
      const { command, created: isNew } = await createCommand(ctx, { ...params, body });
      return isNew ? created(command) : ok(command);
    },
  }),
  route({
    method: "PUT",
    path: GLOBAL,
    ...BY_APPLICATION,
    body: ZGlobalCommandBulkBodySchema,
    handler: async ({ ctx, params, body }) => ok(await overwriteCommands(ctx, { ...params, body })),
  }),
  route({
    method: "GET",
    path: `${GLOBAL}/:commandId`,
    ...BY_APPLICATION,
    handler: async ({ ctx, params }) => ok(await getCommand(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: `${GLOBAL}/:commandId`,
    ...BY_APPLICATION,
    body: ZGlobalCommandEditBodySchema,
    handler: async ({ ctx, params, body }) => ok(await editCommand(ctx, { ...params, body })),
  }),
  route({
    method: "DELETE",
    path: `${GLOBAL}/:commandId`,
    ...BY_APPLICATION,
    handler: async ({ ctx, params }) => {
      await deleteCommand(ctx, params);
      return noContent();
    },
  }),
  route({
    method: "GET",
    path: GUILD,
    ...BY_APPLICATION,
    query: ZCommandListQuerySchema,
    handler: async ({ ctx, params, query, header }) =>
      ok(await listCommands(ctx, { ...params, withLocalizations: query.with_localizations ?? false, locale: requestLocale(header) })),
  }),
  route({
    method: "POST",
    path: GUILD,
    ...BY_APPLICATION,
    body: ZGuildCommandBodySchema,
    handler: async ({ ctx, params, body }) => {
      const { command, created: isNew } = await createCommand(ctx, { ...params, body });
      return isNew ? created(command) : ok(command);
    },
  }),
  route({
    method: "PUT",
    path: GUILD,
    ...BY_APPLICATION,
    body: ZGuildCommandBulkBodySchema,
    handler: async ({ ctx, params, body }) => ok(await overwriteCommands(ctx, { ...params, body })),
  }),
  route({
    method: "GET",
    path: `${GUILD}/:commandId`,
    ...BY_APPLICATION,
    handler: async ({ ctx, params }) => ok(await getCommand(ctx, params)),
  }),
  route({
    method: "PATCH",
    path: `${GUILD}/:commandId`,
    ...BY_APPLICATION,
    body: ZGuildCommandEditBodySchema,
    handler: async ({ ctx, params, body }) => ok(await editCommand(ctx, { ...params, body })),
  }),
  route({
    method: "DELETE",
    path: `${GUILD}/:commandId`,
    ...BY_APPLICATION,
    handler: async ({ ctx, params }) => {
      await deleteCommand(ctx, params);
      return noContent();
    },
  }),
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
