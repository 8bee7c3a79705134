"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { resolveReviewItemAction } from "@/lib/review/actions";
import type { HumanVerdictValue } from "@/lib/review/schemas";
import type { IssueList } from "@/lib/errors";
import { Button } from "@/components/ui/button";
import { Field, FormError, Select, TextareaField } from "@/components/ui/field";

/** An admin's verdict on an item whose reviewers disagree: it becomes the case result's human verdict. */
export function ResolveForm({ workspaceId, itemId }: { workspaceId: string; itemId: string }) {
  const router = useRouter();
  const [verdict, setVerdict] = useState<HumanVerdictValue | "">("");
  const [comment, setComment] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<IssueList>([]);
  const issueAt = (path: string) => issues.find((i) => i.path === path)?.message;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(null);
    setIssues([]);
    const result = await resolveReviewItemAction(workspaceId, { id: itemId, verdict: verdict as HumanVerdictValue, comment });
    setPending(false);
    if (!result.ok) {
      setError(result.error);
      setIssues(result.issues);
      return;
    }
    router.refresh();
  };

  return (
    <section aria-labelledby="resolve-title" className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="resolve-title" className="text-base font-semibold">
        Resolve the conflict
      </h2>
      <p className="mt-1 text-sm text-slate-700">The reviewers disagree. Your verdict becomes the case&apos;s human verdict.</p>
      <form onSubmit={submit} noValidate className="mt-3 space-y-3">
        <Field id="resolve-verdict" label="Final verdict" error={issueAt("verdict")}>
          <Select
            id="resolve-verdict"
            value={verdict}
            onChange={(e) => setVerdict(e.target.value as HumanVerdictValue | "")}
            aria-invalid={Boolean(issueAt("verdict"))}
          >
            <option value="">Choose…</option>
            <option value="pass">Pass</option>
            <option value="fail">Fail</option>
          </Select>
        </Field>
        <TextareaField
          id="resolve-comment"
          label="Comment"
          error={issueAt("comment")}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
        />
        <Button type="submit" disabled={pending}>
          {pending ? "Resolving…" : "Resolve"}
        </Button>
        <FormError message={error} />
      </form>
    </section>
  );
}
