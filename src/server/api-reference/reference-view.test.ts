import { describe, expect, it } from "vitest";
import { ROUTES } from "~/server/rest/routes.ts";
import { openApiDocument } from "./openapi.ts";
import { referenceView } from "./reference-view.ts";

const sections = referenceView(openApiDocument(ROUTES));
const routes = sections.flatMap((section) => section.routes);
const find = (method: string, path: string) => routes.find((route) => route.method === method && route.path === path)!;

describe("the reference page's view of the document", () => {
  it("lists every route once, under its tag", () => {
    expect(routes).toHaveLength(ROUTES.length);
    expect(sections.find((section) => section.tag === "Members")!.routes.map((route) => route.path)).toContain("/guilds/{guildId}/members/{userId}");
  });

  it("says who may call: the token kind and the scopes", () => {
    expect(find("PUT", "/guilds/{guildId}/requests/@me")).toMatchObject({ auth: "bearer", scopes: ["guilds.join"] });
    expect(find("GET", "/users/@me")).toMatchObject({ auth: "any", scopes: ["identify"] });
    expect(find("GET", "/openapi.json")).toMatchObject({ auth: "none", scopes: [] });
  });

  it("shows a body as a tree of fields with types, requiredness, limits and values", () => {
    const create = find("POST", "/guilds/{guildId}/roles");
    expect(create.body).toMatchObject({ contentTypes: ["application/json"] });
    const body = find("POST", "/lobbies/{lobbyId}/members/bulk").body!.schema;
    expect(body.type).toBe("array of object");
    expect(body.limits.some((limit) => limit.includes("items"))).toBe(true);
    const id = body.children.find((field) => field.name === "id")!;
    expect(id).toMatchObject({ type: "string", required: true });
    const voice = find("PUT", "/channels/{channelId}/voice-status").body!.schema.children.find((field) => field.name === "status")!;
    expect(voice.type).toBe("string");
    expect(voice.limits.some((limit) => limit.includes("characters"))).toBe(true);
  });

  it("names the answer's platform object and status", () => {
    expect(find("GET", "/guilds/{guildId}/members/{userId}").answers[0]).toEqual({
      status: "200",
      description: "Success.",
      contentType: "application/json",
      schema: "GuildMemberResponse",
    });
    expect(find("GET", "/guilds/{guildId}/roles").answers[0]!.schema).toBe("array of GuildRoleResponse");
    expect(find("POST", "/lobbies/{lobbyId}/members/bulk").answers[0]!.schema).toBe("array of LobbyMemberResponse or null");
  });
});
