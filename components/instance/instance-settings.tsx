import { Card } from "@/components/ui/card";
import { RetentionSettingsForm } from "@/components/retention/retention-settings-form";
import { CleanupPanel } from "@/components/retention/cleanup-panel";
import { CleanupRecords } from "@/components/retention/cleanup-records";
import type { CleanupRecordDto, RetentionSettings } from "@/lib/retention/dto";

/** The Instance page's sections: retention settings, the cleanup and its latest records (actions run in `workspaceId`, the first workspace). */
export function InstanceSettings({
  workspaceId,
  settings,
  records,
}: {
  workspaceId: string;
  settings: RetentionSettings;
  records: CleanupRecordDto[];
}) {
  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="text-base font-semibold">Retention</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          For every workspace of this instance. A nightly cleanup deletes runs older than the kept days, except each suite&apos;s newest
          completed runs, pinned baselines, runs still running, runs of open alerts and of starred comparisons. Suites can override days and
          runs in their settings.
        </p>
        <RetentionSettingsForm workspaceId={workspaceId} settings={settings} />
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
        <CleanupRecords records={records} />
      </Card>
    </div>
  );
}
