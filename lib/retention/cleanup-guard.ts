/**
 * The cleanup's guard against mass deletion: a cleanup that would delete more than half of all
 * finished runs (every workspace's: retention is instance-wide) runs only when confirmed, since
 * that is what a retention setting made by mistake (or by a key that should not have) looks like.
 * The API asks for `confirm=true`, the retention page asks in a dialog, and the nightly cleanup
 * holds off and leaves a record saying so. Called by ./cleanup.ts, which counts what it would
 * delete and the finished runs (completed, failed or cancelled) there are.
 */
import { DomainError, type IssueList } from "@/lib/errors";

/** More than half of the finished runs. */
export function cleanupNeedsConfirmation(runsToDelete: number, finishedRuns: number): boolean {
  return runsToDelete * 2 > finishedRuns;
}

/** Refused for want of confirmation: 409 with the counts, so the caller can ask and repeat. */
export class CleanupConfirmationRequired extends DomainError {
  override readonly status = 409;
  override readonly code = "confirmation_required";
  override readonly issues: IssueList;
  readonly runsToDelete: number;
  readonly finishedRuns: number;
  constructor(runsToDelete: number, finishedRuns: number) {
    super(
      `This cleanup would delete ${runsToDelete} of ${finishedRuns} finished runs, more than half of them: repeat it with confirm=true to go ahead`,
    );
    this.runsToDelete = runsToDelete;
    this.finishedRuns = finishedRuns;
    this.issues = [{ path: "confirm", message: "Required (true) for a cleanup that deletes more than half of all finished runs" }];
  }

  /** What the nightly cleanup's record says when it held off. */
  get heldMessage(): string {
    return `Held: would delete ${this.runsToDelete} of ${this.finishedRuns} finished runs (more than half); run it from Settings → Retention to confirm`;
  }
}
