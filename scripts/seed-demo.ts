// `npm run seed:demo [-- --workspace <id>]`: adds the demo agent, suite and cases (on the
// built-in demo model, no API key needed) to a workspace — the first one by default — and queues
// the demo's first run (the app's executor runs it; see lib/demo/seed.ts for the story).
import { db } from "@/lib/db";
import { seedDemo } from "@/lib/demo/seed";
import { headlessInit } from "@/lib/workspaces/headless-init";

// Scripted installs: ASSAY_INIT_* create the first admin and workspace here too.
await headlessInit();

const arg = process.argv.indexOf("--workspace");
const workspaceId = arg > 0 ? process.argv[arg + 1] : undefined;
const workspace = await db.workspace.findFirst({
  where: workspaceId ? { id: workspaceId } : {},
  orderBy: { createdAt: "asc" },
  select: { id: true, name: true },
});
if (!workspace) {
  console.error("No workspace yet: open the app and create the first admin (or set ASSAY_INIT_* and start it), then run this again.");
  process.exit(1);
}
const { suiteId, runId, created } = await seedDemo({ workspaceId: workspace.id, role: "owner", userId: null, apiKeyId: null });
console.log(
  `${created ? "Created" : "Already there:"} the demo suite in workspace "${workspace.name}" → /w/${workspace.id}/suites/${suiteId}`,
);
if (runId) console.log(`Queued its first run (it starts when the app runs) → /w/${workspace.id}/runs/${runId}`);
await db.$disconnect();
