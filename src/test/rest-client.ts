export type RestResponse<T = any> = { status: number; body: T; headers: Headers };

/** One request as the client saw it: what was asked and what came back (raw text and parsed body). */
export type RestExchange = { method: string; url: string; status: number; headers: Headers; text: string; body: unknown };

type QueryValue = string | number | boolean;
/** A list value is sent as the parameter repeated, as client libraries send lists; `form` is a multipart body (fetch sets its boundary). */
type Options = { query?: Record<string, QueryValue | readonly QueryValue[]>; headers?: Record<string, string>; rawBody?: string; form?: FormData };

/**
 * Calls the REST dispatcher the way an HTTP client would, with a token of the caller's kind.
 * `observe` sees every exchange (the test app checks it against the API description).
 */
export function restClient(dispatch: (request: Request) => Promise<Response>, authorization?: string, observe?: (exchange: RestExchange) => void) {
  async function call<T = any>(method: string, path: string, body?: unknown, options: Options = {}): Promise<RestResponse<T>> {
    const url = new URL(`http://guildhall.test/api/v10${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(one));
    }
    const headers: Record<string, string> = { ...options.headers };
    if (authorization) headers.authorization = authorization;
    let payload: string | FormData | undefined = options.form ?? options.rawBody;
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      payload = JSON.stringify(body);
    }
    const response = await dispatch(new Request(url, { method, headers, body: payload }));
    const text = await response.text();
    const parsed: unknown = text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
    observe?.({ method, url: url.href, status: response.status, headers: response.headers, text, body: parsed });
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
  return {
    get: <T = any>(path: string, options?: Options) => call<T>("GET", path, undefined, options),
    post: <T = any>(path: string, body?: unknown, options?: Options) => call<T>("POST", path, body, options),
    put: <T = any>(path: string, body?: unknown, options?: Options) => call<T>("PUT", path, body, options),
    patch: <T = any>(path: string, body?: unknown, options?: Options) => call<T>("PATCH", path, body, options),
    delete: <T = any>(path: string, options?: Options) => call<T>("DELETE", path, undefined, options),
  };
}

export const bot = (token: string) => `Bot ${token}`;
export const bearer = (token: string) => `Bearer ${token}`;
