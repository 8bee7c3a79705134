"use client";
import { useId, useRef, useState } from "react";
import { Badge } from "@/components/ui/card";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormError, Input } from "@/components/ui/field";
import { CopyField } from "@/components/workspaces/copy-field";
import { formatDateTime } from "@/components/runs/format";
import { createShareLinkAction, revokeShareLinkAction, shareLinksAction } from "@/lib/share-links/actions";
import type { ShareLinkDto, ShareTarget } from "@/lib/share-links/dto";
import { DEFAULT_SHARE_DAYS, MAX_SHARE_DAYS } from "@/lib/share-links/schemas";

type Loaded = { sharingEnabled: boolean; canShare: boolean; links: ShareLinkDto[] };

const STATUS_TONES = { active: "green", expired: "slate", revoked: "amber" } as const;
const STATUS_LABELS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;

/**
 * "Share" on a run or comparison page: a dialog that makes a read-only link (its expiry in days),
 * shows it once to copy, and lists the existing links with their expiry and a Revoke button.
 * When the workspace has sharing turned off it says so and who can turn it on.
 */
export function ShareButton({ workspaceId, target }: { workspaceId: string; target: ShareTarget }) {
  const ref = useRef<HTMLDialogElement>(null);
  const uid = useId();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [days, setDays] = useState(String(DEFAULT_SHARE_DAYS));
  const [created, setCreated] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const what = target.kind === "run" ? "run report" : "comparison";

  async function load() {
    const result = await shareLinksAction(workspaceId, target);
    if (result.ok) setLoaded(result.data);
    else setError(result.error);
  }

  async function create(e: React.FormEvent) {
    e.preventDefault();
    setPending(true);
    setError(null);
    try {
      const result = await createShareLinkAction(workspaceId, { ...target, expires_in_days: Number(days) });
      if (!result.ok) {
        setError(result.issues[0]?.message ? `${result.issues[0].message}` : result.error);
        return;
      }
      setCreated(`${window.location.origin}${result.data.path}`);
      await load();
    } finally {
      setPending(false);
    }
  }

  async function revoke(id: string) {
    const result = await revokeShareLinkAction(workspaceId, { id });
    if (!result.ok) setError(result.error);
    await load();
  }

  return (
    <>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          setCreated(null);
          setError(null);
          ref.current?.showModal();
          void load();
        }}
      >
        Share
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={`${uid}-title`}
        className="m-auto max-h-[92vh] w-full max-w-lg overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="space-y-4 p-5">
          <div>
            <h2 id={`${uid}-title`} className="text-base font-semibold">
              Share this {what}
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              Anyone with the link can read the {what} — verdicts, reasons and transcripts — without signing in, until it expires or is
              revoked. They see no settings, keys or member details, and cannot change anything.
            </p>
          </div>
          {!loaded ? (
            error ? (
              <FormError message={error} />
            ) : (
              <p className="text-sm text-slate-600" aria-busy="true">
                Loading share links…
              </p>
            )
          ) : (
            <>
              {!loaded.sharingEnabled ? (
                <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                  Sharing is turned off for this workspace. An admin can turn it on in the workspace settings.
                </p>
              ) : loaded.canShare ? (
                <form onSubmit={create} className="flex flex-wrap items-end gap-2">
                  <div className="space-y-1">
                    <label htmlFor={`${uid}-days`} className="block text-sm font-medium text-slate-700">
                      Expires after (days)
                    </label>
                    <Input
                      id={`${uid}-days`}
                      type="number"
                      min={1}
                      max={MAX_SHARE_DAYS}
                      step={1}
                      value={days}
                      onChange={(e) => setDays(e.target.value)}
                      className="w-28"
                      disabled={pending}
                    />
                  </div>
                  <Button type="submit" disabled={pending}>
                    {pending ? "Creating…" : "Create link"}
                  </Button>
                </form>
              ) : (
                <p className="text-sm text-slate-600">Editors can create share links.</p>
              )}
              {created && (
                <div className="space-y-1">
                  <CopyField label="Share link" value={created} />
                  <p className="text-xs text-slate-500">Copy it now: the link is shown only once.</p>
                </div>
              )}
              {error && <FormError message={error} />}
              <LinkList links={loaded.links} canRevoke={loaded.canShare} onRevoke={revoke} />
            </>
          )}
          <div className="flex justify-end">
            <Button variant="secondary" onClick={() => ref.current?.close()}>
              Close
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}

function LinkList({ links, canRevoke, onRevoke }: { links: ShareLinkDto[]; canRevoke: boolean; onRevoke: (id: string) => Promise<void> }) {
  if (links.length === 0) return <p className="text-sm text-slate-600">No share links yet.</p>;
  return (
    <section aria-label="Share links" className="space-y-2">
      <h3 className="text-sm font-semibold">Links</h3>
      <ul className="divide-y divide-slate-100 rounded-md border border-slate-200">
        {links.map((link) => (
          <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
            <span className="flex flex-wrap items-center gap-2">
              <Badge tone={STATUS_TONES[link.status]}>{STATUS_LABELS[link.status]}</Badge>
              <span className="text-slate-700">
                {link.status === "revoked" ? `Revoked ${formatDateTime(link.revoked_at)}` : `Expires ${formatDateTime(link.expires_at)}`}
              </span>
            </span>
            {canRevoke && link.status === "active" && (
              <ConfirmButton
                variant="danger"
                size="sm"
                title="Revoke this share link?"
                description="Whoever has the link can no longer open it. This cannot be undone."
                confirmLabel="Revoke"
                onConfirm={() => onRevoke(link.id)}
              >
                Revoke
              </ConfirmButton>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
