import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadRetentionPage } from "@/lib/retention/loaders";
import { Card, EmptyState } from "@/components/ui/card";
import { RetentionSettingsForm } from "@/components/retention/retention-settings-form";
import { CleanupPanel } from "@/components/retention/cleanup-panel";
import { CleanupRecords } from "@/components/retention/cleanup-records";
import type { WorkspaceParams } from "@/lib/pages/props";

export const metadata = { title: "Retention" };

export default async function RetentionSettingsPage({ params }: WorkspaceParams) {
  const { workspaceId } = await params;
  const ctx = await orNotFound(pageContext(workspaceId));
  const page = await loadRetentionPage(ctx);
  if (!page.allowed) {
    return (
      <EmptyState
        title="Retention is set for the whole instance"
        description="Only owners and admins of the instance's first workspace can change retention settings or run a cleanup."
      />
    );
  }
  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="text-base font-semibold">Retention settings</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          For every workspace of this instance. A nightly cleanup deletes runs older than the kept days, except each suite&apos;s newest
          completed runs, pinned baselines, runs still running, runs of open alerts and of starred comparisons. Suites can override days and
          runs in their settings.
        </p>
        <RetentionSettingsForm workspaceId={workspaceId} settings={page.settings} />
      </Card>
      <Card className="p-5">
        <h2 className="text-base font-semibold">Cleanup</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          Preview what a cleanup would delete now, or run it without waiting for the night.
        </p>
        <CleanupPanel workspaceId={workspaceId} />
      </Card>
      <Card className="p-5">
        <h2 className="mb-3 text-base font-semibold">Latest cleanups</h2>
        <CleanupRecords records={page.records} />
      </Card>
    </div>
  );
}
