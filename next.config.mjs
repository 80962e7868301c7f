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
};

export default nextConfig;
