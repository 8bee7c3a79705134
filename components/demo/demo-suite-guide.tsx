import type { DemoGuide } from "@/lib/demo/guide";
import { PromptChangeList } from "./prompt-change";
import { RunAgainButton } from "./run-again-button";

/** The demo suite page's note: the agent's prompt changed after the latest run — run it again. */
export function DemoSuiteGuide({ workspaceId, guide }: { workspaceId: string; guide: DemoGuide }) {
  return (
    <section
      aria-label="About this demo"
      className="space-y-2 rounded-md border border-indigo-200 bg-indigo-50/40 px-4 py-3 text-sm text-slate-700"
    >
      <p>The demo agent&apos;s system prompt was edited after the latest run:</p>
      <PromptChangeList change={guide.change} />
      <p>Run the suite again to see how Assay explains the regression.</p>
      {guide.canRun && <RunAgainButton workspaceId={workspaceId} suiteId={guide.suiteId} />}
    </section>
  );
}
