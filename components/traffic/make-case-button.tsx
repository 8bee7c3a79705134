"use client";
import { useId, useState } from "react";
import { useRouter } from "next/navigation";
import { LaunchDialog, LaunchForm } from "@/components/ui/launch-dialog";
import { DraftSuiteField, draftSuiteOptions } from "./draft-suite-field";

export type DraftFrom = { type: "conversation"; id: string } | { type: "case_result"; id: string };

type Kind = "auto" | "single" | "persona";

/**
 * "Make a test case" on a conversation (or a case result's transcript): choose the suite and the
 * kind of case, then the suite's new-case form opens pre-filled with the draft for review — the
 * persona, user context and expected outcomes drafted by the suite's judge model.
 */
export function MakeCaseButton({
  workspaceId,
  from,
  userTurns,
  defaultSuiteId,
}: {
  workspaceId: string;
  from: DraftFrom;
  /** The conversation's user turns (the default kind: one → single-turn, several → simulated user). */
  userTurns: number;
  defaultSuiteId?: string;
}) {
  const router = useRouter();
  const uid = useId();
  const [suiteId, setSuiteId] = useState("");
  const [kind, setKind] = useState<Kind>("auto");
  const [outcomes, setOutcomes] = useState(false);
  const [params, setParams] = useState(false);
  const [pending, setPending] = useState(false);
  const automatic = userTurns > 1 ? "persona" : "single";
  const effective = kind === "auto" ? automatic : kind;

  return (
    <LaunchDialog
      label="Make a test case"
      variant="secondary"
      title="Make a test case"
      description="Opens the suite's case form filled in from this conversation, for you to review before saving."
      options={draftSuiteOptions(workspaceId)}
    >
      {(suites) => {
        const selected = suiteId || (suites.some((s) => s.id === defaultSuiteId) ? defaultSuiteId! : (suites[0]?.id ?? ""));
        const suite = suites.find((s) => s.id === selected);
        return (
          <LaunchForm
            onSubmit={(e, dialog) => {
              e.preventDefault();
              if (!selected) return;
              setPending(true);
              const q = new URLSearchParams({ [from.type]: from.id, kind: effective });
              if (outcomes && effective === "single") q.set("outcomes", "1");
              if (params) q.set("tool_params", "1");
              dialog.close();
              router.push(`/w/${workspaceId}/suites/${selected}/cases/new?${q}`);
            }}
            pending={pending}
            submitLabel="Draft the case"
            pendingLabel="Drafting…"
            submitDisabled={!selected}
          >
            {suites.length === 0 ? (
              <p className="text-sm text-slate-600">This workspace has no suite yet: create one for the agent first.</p>
            ) : (
              <>
                <DraftSuiteField id={`${uid}-suite`} suites={suites} value={selected} onChange={setSuiteId} />
                <fieldset className="space-y-1 text-sm">
                  <legend className="mb-1 font-medium text-slate-700">Kind of case</legend>
                  {(
                    [
                      ["auto", `As the conversation went (${automatic === "persona" ? "simulated user" : "single question"})`],
                      ["single", "A single question: the first user message"],
                      ["persona", "A simulated user who replays this user"],
                    ] as const
                  ).map(([value, label]) => (
                    <label key={value} className="flex items-center gap-2">
                      <input type="radio" name={`${uid}-kind`} checked={kind === value} onChange={() => setKind(value)} />
                      {label}
                    </label>
                  ))}
                </fieldset>
                {effective === "single" && (
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" checked={outcomes} onChange={(e) => setOutcomes(e.target.checked)} />
                    Draft expected outcomes from the agent&apos;s answer
                  </label>
                )}
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={params} onChange={(e) => setParams(e.target.checked)} />
                  Keep the tools&apos; parameters as expected (otherwise only the tool names)
                </label>
                {suite && !suite.has_judge && (effective === "persona" || outcomes) && (
                  <p className="text-sm text-amber-800">
                    {suite.name} has no judge model: the persona, user context and expected outcomes will be left for you to write.
                  </p>
                )}
              </>
            )}
          </LaunchForm>
        );
      }}
    </LaunchDialog>
  );
}
