import type { CaseResultStatus } from "@/lib/runs/schemas";

/** Why a case did not pass: the failed checks' reasons as a list, or else the error message. */
export function FailureReasons({
  status,
  reasons,
  errorMessage,
}: {
  status: CaseResultStatus;
  reasons: string[];
  errorMessage: string | null;
}) {
  return status === "failed" && reasons.length > 0 ? (
    <ul className="mt-1 list-disc space-y-0.5 pl-5" aria-label="Failure reasons">
      {reasons.map((reason, i) => (
        <li key={i} className="whitespace-pre-wrap">
          {reason}
        </li>
      ))}
    </ul>
  ) : (
    <p className="mt-1 whitespace-pre-wrap">{errorMessage ?? "No reason was recorded."}</p>
  );
}
