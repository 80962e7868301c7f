import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { processRuntime } from "~/server/serving/process-serving.ts";
import { env } from "~/env.ts";
import { safeCallbackPath } from "./callback-url.ts";
import { resolveExternalAccountUser } from "./external-account.service.ts";
import { signInClientAddress, signInWithPassword } from "./sign-in.service.ts";

declare module "next-auth" {
  // Module augmentation merges only with an interface.
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions
  interface Session {
    user: { id: string; name?: string | null; email?: string | null; image?: string | null };
  }
}

const OIDC_PROVIDER_ID = "oidc";
/** Where the generated session secret lives when NEXTAUTH_SECRET is not set. */
const SECRET_FILE = "data/nextauth-secret";

/**
 * NEXTAUTH_SECRET, or for local runs a random secret kept in `data/` so sessions survive
 * restarts. Several instances behind a load balancer must share NEXTAUTH_SECRET.
 */
function resolveSecret(): string {
  const configured = env().NEXTAUTH_SECRET;
  if (configured) return configured;
  const path = resolve(SECRET_FILE);
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    // Written aside and linked into place, so a process starting alongside never reads a
    // half-written file, and the first one to link wins.
    const draft = `${path}.${process.pid}`;
    writeFileSync(draft, randomBytes(32).toString("base64url"), { mode: 0o600 });
    try {
      linkSync(draft, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return readFileSync(path, "utf8").trim();
}

type OidcClaims = {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  preferred_username?: string;
};

type OidcConfig = { issuer: string; clientId: string; clientSecret: string; name: string };

/** The OpenID Connect issuer, when all three of its settings are present. */
function oidcConfig(): OidcConfig | null {
  const config = env();
  if (!config.OIDC_ISSUER || !config.OIDC_CLIENT_ID || !config.OIDC_CLIENT_SECRET) return null;
  return { issuer: config.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID, clientSecret: config.OIDC_CLIENT_SECRET, name: config.OIDC_NAME };
}

function oidcProvider(config: OidcConfig): OAuthConfig<OidcClaims> {
  return {
    id: OIDC_PROVIDER_ID,
    name: config.name,
    type: "oauth",
    wellKnown: `${config.issuer.replace(/\/$/, "")}/.well-known/openid-configuration`,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state"],
    profile: (claims) => ({ id: claims.sub, name: claims.name ?? claims.preferred_username ?? null, email: claims.email ?? null }),
  };
}

function buildAuthOptions(): AuthOptions {
  // Links next-auth hands out (the OIDC redirect URI) use the service's public address.
  process.env.NEXTAUTH_URL ??= env().PUBLIC_BASE_URL;
  const providers: AuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      authorize: (credentials, req) => signInWithPassword(processRuntime(), credentials, signInClientAddress(req.headers)),
    }),
  ];
  const oidc = oidcConfig();
  if (oidc) providers.push(oidcProvider(oidc));
  return {
    secret: resolveSecret(),
    // Served over https (a TLS-terminating proxy in front, PUBLIC_BASE_URL https://…), the
    // session cookies are Secure and __Secure-/__Host- named, so browsers never send them in clear.
    useSecureCookies: new URL(process.env.NEXTAUTH_URL).protocol === "https:",
    session: { strategy: "jwt" },
    pages: { signIn: "/signin", error: "/signin" },
    providers,
    callbacks: {
      async jwt({ token, account, profile }) {
        // On an OIDC sign-in the token's subject becomes the platform user, not the issuer's `sub`.
        if (account?.provider === OIDC_PROVIDER_ID) {
          const claims = profile as OidcClaims | undefined;
          token.sub = await resolveExternalAccountUser(processRuntime().db, {
            provider: OIDC_PROVIDER_ID,
            subject: account.providerAccountId,
            email: claims?.email ?? null,
            emailVerified: claims?.email_verified === true,
            displayName: claims?.name ?? null,
            preferredUsername: claims?.preferred_username ?? null,
          });
        }
        return token;
      },
      session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub ?? "" } };
      },
      // Every redirect next-auth makes (after single sign-on, after signing out) stays on the dashboard.
      redirect({ url, baseUrl }) {
        return new URL(safeCallbackPath(url, baseUrl), baseUrl).href;
      },
    },
  };
}

let cached: AuthOptions | undefined;

/** The dashboard's next-auth configuration, built on first use (it may create the secret file). */
export function getAuthOptions(): AuthOptions {
  cached ??= buildAuthOptions();
  return cached;
}

/** The single sign-on button the sign-in page shows, if an issuer is configured. */
export function oidcSignInOption(): { id: string; name: string } | null {
  const oidc = oidcConfig();
  return oidc && { id: OIDC_PROVIDER_ID, name: oidc.name };
}
