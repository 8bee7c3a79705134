/**
 * dependency-cruiser: imports flow one way. `npm run lint` fails on any runtime import cycle
 * between modules of lib/, components/ and app/. A cycle hidden behind `await import()` counts
 * too: dynamic imports are followed like static ones. Type-only imports are erased before the
 * code runs and cannot make one module see another half-initialised, so the graph is the
 * compiled one (`tsPreCompilationDeps: false`) and they do not count.
 * tests/lint/import-cycles.test.ts proves the rule fires.
 */
/* global module */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A runtime import cycle: one of these modules can see the other half-initialised. Move the shared declaration into a lower module, or let the lower module publish an event the upper one subscribes to (as lib/runs/run-finished.ts does).",
      from: { path: "^(lib|components|app)/" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|lib/generated|\\.next)" },
    // The runtime graph: `import type` and type-only specifiers are dropped, `import()` is kept.
    tsPreCompilationDeps: false,
    // Resolves the `@/` alias through the project's paths.
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
