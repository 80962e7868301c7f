import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "~/components/auth/sign-in-form.tsx";
import { safeCallbackPath } from "~/server/auth/callback-url.ts";
import { oidcSignInOption } from "~/server/auth/next-auth.ts";
import { auth } from "~/server/auth/session.ts";
import { env } from "~/env.ts";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // Only paths of the dashboard itself: an open redirect would let links send people elsewhere after signing in.
  const callbackUrl = safeCallbackPath(params.callbackUrl, env().PUBLIC_BASE_URL);
  if (await auth()) redirect(callbackUrl);
  const error = typeof params.error === "string" ? params.error : null;
  return <SignInForm callbackUrl={callbackUrl} sso={oidcSignInOption()} initialError={error} />;
}
