/**
 * How a run's metadata (what its caller said about where it comes from: `{commit, branch,
 * build_url, …}`) is shown: pure helpers shared by the run list, the run page and the trend
 * tooltips. The values are user-given text: a build URL becomes a link only when it is an
 * absolute http(s) URL, never `javascript:` or `data:`.
 */

export type RunMetadataView = {
  branch: string | null;
  /** The whole commit id, for titles and copying. */
  commit: string | null;
  /** A hex commit id cut to 7 characters (as git shows it); other values as given. */
  shortCommit: string | null;
  /** The build URL when it is safe to link to (absolute http or https), else null. */
  buildHref: string | null;
  /** The build URL as given (shown as text when it is not linkable). */
  buildUrl: string | null;
  /** Every other key, in the caller's order. */
  others: [string, string][];
};

const KNOWN = new Set(["branch", "commit", "build_url"]);

/** An absolute http(s) URL, normalised, or null (relative, other schemes, unparsable). */
export function linkableUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** "0f3c9a2e…" → "0f3c9a2"; a value that is not a hex commit id is kept whole. */
export function shortCommit(commit: string): string {
  return /^[0-9a-f]{8,64}$/i.test(commit) ? commit.slice(0, 7) : commit;
}

const text = (v: string | undefined) => (v && v.trim() ? v.trim() : null);

export function runMetadataView(metadata: Record<string, string> | null | undefined): RunMetadataView {
  const m = metadata ?? {};
  const commit = text(m.commit);
  const buildUrl = text(m.build_url);
  return {
    branch: text(m.branch),
    commit,
    shortCommit: commit && shortCommit(commit),
    buildHref: buildUrl && linkableUrl(buildUrl),
    buildUrl,
    others: Object.entries(m).filter(([k, v]) => !KNOWN.has(k) && typeof v === "string" && v.trim() !== ""),
  };
}

/** "main · 0f3c9a2": branch and short commit in one phrase, or null when neither is known. */
export function branchAndCommit(metadata: Record<string, string> | null | undefined): string | null {
  const view = runMetadataView(metadata);
  const parts = [view.branch, view.shortCommit].filter((p): p is string => p !== null);
  return parts.length ? parts.join(" · ") : null;
}
