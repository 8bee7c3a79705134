/**
 * Runs once when the Next.js server starts (Node.js runtime only, not during `next build`):
 * headless initialisation from ASSAY_INIT_*, then the run executor and the scheduler (see
 * lib/server-start.ts; ASSAY_EXECUTOR=off leaves them to a separate worker process).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { onServerStart } = await import("./lib/server-start");
  await onServerStart();
}
