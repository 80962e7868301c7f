// What the token and revoke endpoints read: an application/x-www-form-urlencoded body (RFC 6749
// 3.2), and nothing else. Every way a request can be wrong here is an OAuth2 error.
import { isFormBody } from "~/server/http/multipart.ts";
import { OAuth2Error } from "./oauth2-error.ts";

/** The request's parameters by name. */
export type TokenForm = Readonly<Record<string, string>>;

const URL_ENCODED = /^application\/x-www-form-urlencoded\s*(;|$)/i;

/** The form of a token or revoke request; a JSON or multipart body is invalid_request. */
export function readTokenForm(body: unknown, contentType: string | null): TokenForm {
  if (!URL_ENCODED.test(contentType ?? "") || !isFormBody(body))
    throw new OAuth2Error("invalid_request", "The request body must be application/x-www-form-urlencoded.");
  const form: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    if (typeof value !== "string") throw new OAuth2Error("invalid_request", `The parameter ${name} must be text.`);
    form[name] = value;
  }
  return form;
}

/** A parameter, or undefined when it is absent or empty (RFC 6749 3.1: empty parameters are omitted). */
export function optionalParam(form: TokenForm, name: string): string | undefined {
  const value = Object.hasOwn(form, name) ? form[name] : undefined;
  return value === undefined || value === "" ? undefined : value;
}

export function requiredParam(form: TokenForm, name: string): string {
  const value = optionalParam(form, name);
  if (value === undefined) throw new OAuth2Error("invalid_request", `The parameter ${name} is required.`);
  return value;
}
