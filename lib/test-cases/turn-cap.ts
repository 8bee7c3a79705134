/**
 * A case's `max_turns` against its workspace's safety cap (Settings → Workspace, at most
 * MAX_SAFETY_CAP). Every conversation stops at the cap whatever the case says, so a higher
 * `max_turns` would be cut without a word at run time: it is refused when the case is saved
 * (created, edited, duplicated or imported), naming the cap. Pure, so the import's per-case
 * report and the service share it.
 */
import type { IssueList } from "@/lib/errors";

export function turnCapIssue(maxTurns: number | null | undefined, cap: number): IssueList[number] | null {
  if (maxTurns == null || maxTurns <= cap) return null;
  return {
    path: "max_turns",
    message: `Max turns is at most ${cap}, this workspace's safety cap on conversation turns (an owner or admin can raise it in the workspace settings, up to 200)`,
  };
}
