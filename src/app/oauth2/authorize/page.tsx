import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthorizeConsent } from "~/components/oauth2/authorize-consent.tsx";
import { auth } from "~/server/auth/session.ts";
import { api } from "~/trpc/server.ts";

export const metadata: Metadata = { title: "Authorize" };

/** The query as the authorize decision reads it: the first value of each parameter. */
function firstValues(params: Record<string, string | string[] | undefined>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) query[key] = first;
  }
  return query;
}

/**
 * The OAuth2 consent page, outside the dashboard's shell like sign-in: who asks for what, and
 * Authorize / Cancel. Requests that fail in a way the client may be told of go back to it at
 * once; prompt=none with everything granted before approves without asking.
 */
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = firstValues(await searchParams);
  if (!(await auth())) redirect(`/signin?callbackUrl=${encodeURIComponent(`/oauth2/authorize?${new URLSearchParams(query).toString()}`)}`);
  const view = await api.oauth2.describe({ query });
  if (view.kind === "redirect") redirect(view.redirectTo);
  if (view.kind === "consent" && view.skipConsent) {
    const outcome = await api.oauth2.approve({ query });
    if ("redirectTo" in outcome) redirect(outcome.redirectTo);
  }
  return <AuthorizeConsent query={query} view={view} />;
}
