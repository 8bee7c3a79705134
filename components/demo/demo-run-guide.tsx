"use client";
import Link from "next/link";
import type { DemoGuide } from "@/lib/demo/guide";
import type { RunDto } from "@/lib/runs/dto";
import { isActiveRun, useRun } from "@/lib/runs/hooks";
import { Section } from "@/components/ui/card";
import { PromptChangeList } from "./prompt-change";
import { RunAgainButton } from "./run-again-button";

/**
 * The demo's note on its run pages: what to look at now, and the next step of the story
 * (lib/demo/seed.ts). It follows the run live (the page's own query), so "Run the suite again"
 * appears once this run has finished.
 */
export function DemoRunGuide({ workspaceId, initialRun, guide }: { workspaceId: string; initialRun: RunDto; guide: DemoGuide }) {
  const { data: run = initialRun } = useRun(workspaceId, initialRun.id, initialRun);
  const active = isActiveRun(run.status);
  return (
    <Section title="About this demo" className="border-indigo-200 bg-indigo-50/40">
      {guide.step === "before-edit" ? (
        <div className="space-y-2 text-sm text-slate-700">
          <p>
            A support agent on the built-in demo model (rule-based answers, no API key). Each model call takes a moment, like a real
            model&apos;s, so you can watch the cases finish. One case fails for a real reason: filter the table by <em>Failed</em> and open
            it to read why.
          </p>
          <p>Since this run started, the agent&apos;s system prompt was edited:</p>
          <PromptChangeList change={guide.change} />
          <p>
            {active
              ? "When this run has finished, run the suite again to see how Assay explains the regression."
              : "Run the suite again to see how Assay explains the regression."}
          </p>
          {guide.nextRunId ? (
            <Link href={`/w/${workspaceId}/runs/${guide.nextRunId}`} className="font-medium text-indigo-700 hover:underline">
              Open the next run
            </Link>
          ) : (
            !active && guide.canRun && <RunAgainButton workspaceId={workspaceId} suiteId={guide.suiteId} />
          )}
        </div>
      ) : (
        <div className="space-y-2 text-sm text-slate-700">
          <p>This run used the agent&apos;s edited system prompt:</p>
          <PromptChangeList change={guide.change} />
          <p>
            <strong>Changes since the previous run</strong> below lists the case that passed before and fails now; open it to see what the
            agent said. When the pass rate drops by the suite&apos;s alert threshold (10 points by default) or more, Assay also raises a
            regression alert: the bell at the top and the suite page show it.
          </p>
        </div>
      )}
    </Section>
  );
}
