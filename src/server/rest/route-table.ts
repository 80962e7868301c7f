import type { HttpMethod, Route } from "./route.ts";

type Node = { literal: Map<string, Node>; param?: { name: string; node: Node }; routes: Map<HttpMethod, Route> };

export type RouteMatch = { kind: "found"; route: Route; params: Record<string, string> } | { kind: "method-not-allowed" } | { kind: "not-found" };

const newNode = (): Node => ({ literal: new Map(), routes: new Map() });

/** A trie over path segments: literal segments win over parameters (`/users/@me` over `/users/:id`). */
export function buildRouteTable(routes: readonly Route[]): (method: string, segments: readonly string[]) => RouteMatch {
  const root = newNode();
  for (const route of routes) {
    let node = root;
    for (const segment of route.path.split("/").filter(Boolean)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) throw new Error(`Route ${route.path}: parameter :${name} conflicts with :${node.param.name}`);
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
    node.routes.set(route.method, route);
  }

  function find(node: Node, segments: readonly string[], index: number, params: Record<string, string>): Node | null {
    if (index === segments.length) return node.routes.size > 0 ? node : null;
    const segment = segments[index]!;
    const literal = node.literal.get(segment);
    if (literal) {
      const found = find(literal, segments, index + 1, params);
      if (found) return found;
    }
    if (node.param && segment !== "") {
      params[node.param.name] = segment;
      const found = find(node.param.node, segments, index + 1, params);
      if (found) return found;
      delete params[node.param.name];
    }
    return null;
  }

  return (method, segments) => {
    const params: Record<string, string> = {};
    const node = find(root, segments, 0, params);
    if (!node) return { kind: "not-found" };
    const route = node.routes.get(method as HttpMethod);
    return route ? { kind: "found", route, params } : { kind: "method-not-allowed" };
  };
}
