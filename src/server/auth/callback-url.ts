/**
 * Where to send someone after signing in: a path on the dashboard's own origin, else "/".
 * The browser is the judge of what a link means, so the value is resolved the way it would
 * resolve it (tabs and newlines dropped, backslashes read as slashes, dot segments removed)
 * and its origin compared, rather than matched against prefixes such as "//".
 */
export function safeCallbackPath(raw: unknown, origin: string): string {
  if (typeof raw !== "string" || raw === "") return "/";
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return "/";
  }
  if (url.origin !== new URL(origin).origin) return "/";
  // "/.//host" resolves to the path "//host", which as a link names another host.
  return (url.pathname + url.search + url.hash).replace(/^\/{2,}/, "/");
}
