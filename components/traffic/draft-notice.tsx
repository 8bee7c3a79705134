import Link from "next/link";
import type { CaseDraft } from "@/lib/traffic/dto";

const FIELD_LABELS: Record<string, string> = {
  persona: "the persona",
  user_context: "the user context",
  expected_outcomes: "the expected outcomes",
};

/** Above a drafted case's form: where it came from, what the judge model wrote (review it), and what was left out and why. */
export function DraftNotice({ workspaceId, draft }: { workspaceId: string; draft: CaseDraft }) {
  const origin =
    draft.source.type === "conversation" ? (
      <Link href={`/w/${workspaceId}/traffic/${draft.source.conversation_id}`} className="text-indigo-700 underline">
        the conversation
      </Link>
    ) : (
      "the case result's transcript"
    );
  return (
    <div role="status" className="mb-4 space-y-1 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 text-sm text-indigo-950">
      <p>
        Drafted from {origin} as a {draft.kind === "persona" ? "simulated-user case" : "single-turn case"}. Nothing is saved until you
        create it.
      </p>
      {draft.drafted.length > 0 && (
        <p>Written by the suite&apos;s judge model — review before saving: {draft.drafted.map((f) => FIELD_LABELS[f] ?? f).join(", ")}.</p>
      )}
      {draft.notes.map((note) => (
        <p key={note} className="text-amber-900">
          {note}
        </p>
      ))}
    </div>
  );
}
