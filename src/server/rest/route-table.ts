import type { HttpMethod, Route } from "./route.ts";

/** What a route table needs of a row: the REST API's routes and the twin's. */
type RouteRow = Pick<Route, "method" | "path">;

type Node<R extends RouteRow> = { literal: Map<string, Node<R>>; param?: { name: string; node: Node<R> }; routes: Map<HttpMethod, R> };

export type RouteMatch<R extends RouteRow = Route> =
  { kind: "found"; route: R; params: Record<string, string> } | { kind: "method-not-allowed" } | { kind: "not-found" };

const newNode = <R extends RouteRow>(): Node<R> => ({ literal: new Map(), routes: new Map() });

/** A trie over path segments: literal segments win over parameters (`/users/@me` over `/users/:id`). */
export function buildRouteTable<R extends RouteRow>(routes: readonly R[]): (method: string, segments: readonly string[]) => RouteMatch<R> {
  const root = newNode<R>();
  for (const route of routes) {
    let node = root;
    for (const segment of route.path.split("/").filter(Boolean)) {
      if (segment.startsWith(":")) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) throw new Error(`Route ${route.path}: parameter :${name} conflicts with :${node.param.name}`);
        node.param ??= { name, node: newNode<R>() };
        node = node.param.node;
      } else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode<R>()));
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
    node.routes.set(route.method, route);
  }

  function find(node: Node<R>, segments: readonly string[], index: number, params: Record<string, string>): Node<R> | null {
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
