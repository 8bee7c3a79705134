/**
 * Where a run comes from, as its caller said (`run_metadata`: branch, commit, build URL, …): one
 * line of facts. Every value is the caller's text, rendered as text; only a build URL with an
 * http(s) scheme becomes a link (a `javascript:` or `data:` URL stays text), and the link neither
 * tells the build server where it was followed from nor gives it this page.
 */

/** The URL when `value` is an absolute http(s) URL, else null. */
export function safeHttpUrl(value: string): string | null {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
  } catch {
    return null;
  }
}

/** Keys shown first and by a name of their own; any others follow as "key: value". */
const KNOWN: [key: string, label: string][] = [
  ["branch", "Branch"],
  ["commit", "Commit"],
  ["build_url", "Build"],
];
/** A commit is recognisable by its first characters; the whole value is in the title. */
const COMMIT_SHOWN = 12;
/** Facts beyond this many are left out (a run may carry 20 keys of 2000 characters). */
const MAX_FACTS = 8;

export type OriginFact = { key: string; label: string; text: string; title: string; href: string | null };

/** The metadata as facts in display order: branch, commit, build, then the other keys alphabetically. */
export function originFacts(metadata: Record<string, string>): OriginFact[] {
  const known = new Set(KNOWN.map(([k]) => k));
  const facts: OriginFact[] = [];
  for (const [key, label] of KNOWN) {
    const value = metadata[key];
    if (!value) continue;
    const text = key === "commit" && /^[0-9a-f]{13,}$/i.test(value) ? value.slice(0, COMMIT_SHOWN) : value;
    facts.push({ key, label, text, title: value, href: key === "build_url" ? safeHttpUrl(value) : null });
  }
  for (const key of Object.keys(metadata).sort()) {
    if (known.has(key) || !metadata[key]) continue;
    facts.push({ key, label: key, text: metadata[key]!, title: metadata[key]!, href: null });
  }
  return facts.slice(0, MAX_FACTS);
}

export function RunOrigin({ metadata, className }: { metadata: Record<string, string>; className?: string }) {
  const facts = originFacts(metadata);
  if (facts.length === 0) return null;
  return (
    <dl
      aria-label="Where the run comes from"
      className={`flex min-w-0 flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600 ${className ?? ""}`}
    >
      {facts.map((f) => (
        <div key={f.key} className="flex max-w-full min-w-0 gap-1">
          <dt className="shrink-0 text-slate-500">{f.label}:</dt>
          <dd className="min-w-0 truncate font-mono" title={f.title}>
            {f.href ? (
              <a
                href={f.href}
                target="_blank"
                rel="noopener noreferrer nofollow"
                className="text-indigo-700 underline hover:text-indigo-900"
              >
                {f.text}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            ) : (
              f.text
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
