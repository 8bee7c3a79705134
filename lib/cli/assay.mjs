#!/usr/bin/env node
// The `assay` bin (package.json "bin"): plain ES modules, no build step, no app path aliases, so
// it runs from a checkout (`npx assay …`) and from a global install alike. See README "Use from CI".
import { main } from "./program.mjs";

// The CLI is its own process, not the app: lib/env.ts (the app's configuration) does not apply,
// and the environment is where a CI says which commit and build this is.
// eslint-disable-next-line no-restricted-properties
process.exitCode = await main(process.argv, process.env);
