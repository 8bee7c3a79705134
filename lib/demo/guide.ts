/**
 * The demo's guide notes: what the run and suite pages tell a new user about the demo story (see
 * ./seed.ts) — which step they are at, and what changed in the agent's prompt between runs. Pure
 * (shared by the loaders and the notes); the data comes from ./loaders.ts.
 */

/** Lines of a prompt that one version has and the other has not, in their order. */
export type PromptChange = { removed: string[]; added: string[] };

/**
 * Where a run stands in the demo story:
 * - `before-edit`: the agent's prompt was edited after this run started — run the suite again;
 * - `after-edit`: this run used a prompt edited since the previous run — look at what changed.
 */
export type DemoGuide = {
  step: "before-edit" | "after-edit";
  suiteId: string;
  change: PromptChange;
  /** before-edit: a later run of the suite that already exists (then it is opened, not started). */
  nextRunId: string | null;
  /** after-edit: the run before this one. */
  previousRunId: string | null;
  /** Whether the member may start a run (editors). */
  canRun: boolean;
};

/** The lines removed from `before` and added in `after` (blank lines and surrounding spaces ignored). */
export function promptChange(before: string, after: string): PromptChange {
  const lines = (text: string) =>
    text
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
  const was = lines(before);
  const now = lines(after);
  return { removed: was.filter((l) => !now.includes(l)), added: now.filter((l) => !was.includes(l)) };
}

export function changed(change: PromptChange): boolean {
  return change.removed.length > 0 || change.added.length > 0;
}
