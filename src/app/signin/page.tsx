import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "~/components/auth/sign-in-form.tsx";
import { oidcSignInOption } from "~/server/auth/next-auth.ts";
import { auth } from "~/server/auth/session.ts";

export const metadata: Metadata = { title: "Sign in" };

/** Only same-site paths: an open redirect would let links send people elsewhere after signing in. */
function safeCallback(value: string | string[] | undefined): string {
  const path = typeof value === "string" ? value : "/";
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : "/";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallback(params.callbackUrl);
  if (await auth()) redirect(callbackUrl);
  const error = typeof params.error === "string" ? params.error : null;
  return <SignInForm callbackUrl={callbackUrl} sso={oidcSignInOption()} initialError={error} />;
}
