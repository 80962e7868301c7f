// The structure check (`npm run structure`, part of `npm run check`): dependency-cruiser reads
// every import, type-only ones included, which is what a circle of types needs to be seen.
/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "No module reaches itself through its imports. A type several modules share lives in a module of its own; " +
        "a lower module that needs a higher one's type takes it as a parameter or declares what it needs.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "core-runtime-at-the-bottom",
      comment:
        "The core runtime (src/server/runtime) knows nothing of what its entries compose on top of it: " +
        "background work, the gateway, the twin (src/server/serving/serving.ts). The twin's clock is the " +
        "process's Date, which services and caches read (twin/twin-clock.ts).",
      severity: "error",
      from: { path: "^src/server/runtime/" },
      to: { path: "^src/server/(background\\.ts|serving/|gateway/|twin/)", pathNot: "^src/server/twin/twin-clock\\.ts$", reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // The Prisma client is generated (and git-ignored); the rest are build and test outputs.
    exclude: { path: "^(src/generated|node_modules|\\.next|dist|bench/out)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
