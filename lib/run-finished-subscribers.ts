/**
 * What follows a finished run, in one place: the subscribers to lib/runs/run-finished.ts.
 * Importing this module registers them (idempotent). Every entry point that finalizes runs
 * imports it: the web process (lib/server-start.ts), the executor (lib/runs/worker.ts, so the
 * worker process and the in-process executor), the tests (tests/setup/per-file-db.ts).
 * tests/runs/run-finished.test.ts holds the list and the entry points to it.
 *
 * In order, as finalizeRunIfDone always ran them: the run.completed / run.failed webhooks (not
 * for comparison arms or cancelled runs; never throws), then exactly one of: the comparison the
 * run is an arm of (it ends with its last arm; an arm raises no regression alert, it is not the
 * suite's next run), the matrix the run is a combination of (its status follows its runs), or,
 * for a completed ordinary run, the suite's review rules (results queued for human review) and
 * the regression check against its baseline.
 */
import "server-only";
import { checkRegression } from "@/lib/runs/alerts";
import { onRunCannotProceed, onRunFinished } from "@/lib/runs/run-finished";
import { failSiblingArms, finishComparisonIfDone } from "@/lib/comparisons/engine";
import { refreshMatrixStatus } from "@/lib/matrices/service";
import { emitRunFinished } from "@/lib/webhooks/events";
import { applyReviewRules } from "@/lib/review/rules";

onRunFinished("webhooks", {
  failure: "could not enqueue the run's webhooks",
  handle: (run) => emitRunFinished(run.runId, { onlyOnce: run.replay }),
});

onRunFinished("comparison", {
  failure: "could not finish the comparison",
  handle: async (run) => {
    if (run.comparisonId) await finishComparisonIfDone(run.comparisonId);
  },
});

onRunFinished("matrix", {
  failure: "could not update the matrix",
  handle: async (run) => {
    if (!run.comparisonId && run.matrixId) await refreshMatrixStatus(run.matrixId);
  },
});

// Before the regression check: what a rule queues is in the review queue as soon as the run is.
onRunFinished("review rules", {
  failure: "could not apply the suite's review rules",
  handle: async (run) => {
    if (!run.comparisonId && !run.matrixId && run.status === "completed") await applyReviewRules(run.runId, run.workspaceId);
  },
});

onRunFinished("regression alert", {
  failure: "regression check failed",
  handle: async (run) => {
    if (!run.comparisonId && !run.matrixId && run.status === "completed") await checkRegression(run.runId, run.suiteId, run.workspaceId);
  },
});

// An arm that cannot run at all stops the comparison's other arms: one arm is no comparison.
onRunCannotProceed("comparison", {
  failure: "could not stop the comparison's other arms",
  handle: async (run) => {
    if (run.comparisonId) await failSiblingArms(run.comparisonId, run.message);
  },
});
