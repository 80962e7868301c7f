import { z } from "zod";

/** A URL scheme a message field may use. */
export type UrlScheme = "http" | "https" | "attachment" | "discord";

/** How much of a refused scheme the message names. */
const SCHEME_SHOWN = 32;

/**
 * A URL of at most `max` characters with one of `schemes`, as the platform checks message
 * URLs: URL_TYPE_INVALID_URL when it does not parse, URL_TYPE_INVALID_SCHEME for any other
 * scheme (`javascript:`, `data:`, `file:` ...). Schemes are compared as the URL parser reads
 * them, so case and leading blanks do not hide one.
 */
export function zUrl(options: { schemes: readonly UrlScheme[]; max: number }) {
  const allowed = `(${options.schemes.map((scheme) => `'${scheme}'`).join(", ")})`;
  return z
    .string()
    .max(options.max)
    .superRefine((value, ctx) => {
      let url: URL;
      try {
        url = new URL(value);
      } catch {
        ctx.addIssue({ code: "custom", message: "Not a well formed URL.", params: { code: "URL_TYPE_INVALID_URL" } });
        return;
      }
      const scheme = url.protocol.slice(0, -1);
      if ((options.schemes as readonly string[]).includes(scheme)) return;
      ctx.addIssue({
        code: "custom",
        message: `Scheme "${scheme.slice(0, SCHEME_SHOWN)}" is not supported. Scheme must be one of ${allowed}.`,
        params: { code: "URL_TYPE_INVALID_SCHEME" },
      });
    });
}
