import { Badge } from "@/components/ui/card";

/**
 * The frame of a shared page: no sidebar, no workspace switcher, no account menu, only the
 * product's name and a note that the page is a read-only copy someone shared. A `<main>` with
 * the page's one `<h1>` inside, so the page reads (and passes axe) on its own.
 */
export function SharedFrame({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3">
          <span className="text-base font-semibold text-slate-900">Assay</span>
          <Badge tone="slate">Read-only shared report</Badge>
        </div>
      </header>
      <main className="mx-auto max-w-6xl space-y-5 px-4 py-6">{children}</main>
    </div>
  );
}

/** What every dead link shows: expired, revoked, sharing turned off, or mistyped, all alike. */
export function SharedLinkGone() {
  return (
    <SharedFrame>
      <h1 className="text-xl font-semibold text-slate-900">This link has expired or was revoked</h1>
      <p className="text-sm text-slate-700">
        Ask whoever shared it for a new link. Links work for a limited time, and the workspace can stop sharing at any moment.
      </p>
    </SharedFrame>
  );
}
