import { NextResponse, type NextRequest } from "next/server";

/**
 * The dashboard's content security policy. Scripts run only with this response's nonce
 * ('strict-dynamic' lets them load Next's chunks): an injected <script> or inline handler
 * does not run. A nonce rather than 'unsafe-inline', which would let any injected inline
 * script run too; its price is that every page renders per request, which these pages do
 * anyway (each one reads the session). Next puts the nonce on its own scripts when the
 * request carries this header; the root layout gives it to Mantine's colour-scheme script.
 * Styles need 'unsafe-inline': Mantine sets style attributes and inline style tags.
 * REST and the CDN send their own, stricter policies (server/rest, server/images/cdn.ts).
 */
function contentSecurityPolicy(nonce: string): string {
  // React's development build evaluates code to rebuild server error stacks; production never does.
  const evalInDev = process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : "";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${evalInDev}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function proxy(request: NextRequest): NextResponse {
  const nonce = btoa(crypto.randomUUID());
  const policy = contentSecurityPolicy(nonce);
  const headers = new Headers(request.headers);
  headers.set("x-nonce", nonce);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  return response;
}

export const config = {
  // Pages only: not REST, the CDN, tRPC or sign-in calls, nor static files; nor prefetches, which are no documents.
  matcher: [
    {
      source: "/((?!api/|cdn/|_next/static|_next/image|favicon).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
