/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and engine packages are loaded by Node at run time, not bundled.
  serverExternalPackages: [
    "better-sqlite3",
    "@prisma/adapter-better-sqlite3",
    "@prisma/adapter-pg",
    "pg",
    "ioredis",
    "@prisma/client",
    "@resvg/resvg-js",
    "satori",
  ],
  experimental: { optimizePackageImports: ["@mantine/core", "@mantine/hooks"] },
  typedRoutes: false,
  // `npm test` type-checks everything with tsc before it builds (scripts/test-all.sh sets this):
  // the build need not do it again.
  typescript: { ignoreBuildErrors: process.env.GUILDHALL_TYPES_CHECKED === "1" },
  // Everything Next serves; pages also get their content security policy from src/proxy.ts.
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          // The older form of the policy's frame-ancestors 'none', for browsers without it.
          { key: "X-Frame-Options", value: "DENY" },
          { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
        ],
      },
    ];
  },
};

export default nextConfig;
