#!/usr/bin/env node
// The `assay` bin (package.json "bin"): plain ES modules, no build step, no app path aliases, so
// it runs from a checkout (`npx assay …`) and from a global install alike. See README "Use from CI".
import { main } from "./program.mjs";

process.exitCode = await main(process.argv);
