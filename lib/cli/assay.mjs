#!/usr/bin/env node
// The `assay` bin of the assay-cli package (lib/cli/package.json; the app's package.json names it
// too): plain ES modules on Node 20+, no build step, nothing imported from outside lib/cli but
// commander, so it runs from a checkout (`node lib/cli/assay.mjs …`) and from its own small
// install alike. See OPERATIONS.md "Running suites from CI".
import { main } from "./program.mjs";

// The CLI is its own process, not the app: lib/env.ts (the app's configuration) does not apply,
// and the environment is where a CI says which commit and build this is.
// eslint-disable-next-line no-restricted-properties
process.exitCode = await main(process.argv, process.env);
