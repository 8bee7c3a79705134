import Link from "next/link";
import { orNotFound, pageContext } from "@/lib/auth/context";
import { loadSuiteSettingsPage } from "@/lib/suites/loaders";
import { buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { PageHeader } from "@/components/ui/page-header";
import { SuiteForm } from "@/components/suites/suite-form";
import { DeleteSuiteButton } from "@/components/suites/delete-suite-button";
import type { WorkspaceParams } from "@/lib/pages/props";
import { loadSuitePresets } from "@/lib/presets/loaders";
import { PresetsManager } from "@/components/variables/presets-manager";

export default async function SuiteSettingsPage({ params }: WorkspaceParams<{ suiteId: string }>) {
  const { workspaceId, suiteId } = await params;
  const ctx = await pageContext(workspaceId);
  const data = await orNotFound(loadSuiteSettingsPage(ctx, suiteId));
  const presets = await orNotFound(loadSuitePresets(ctx, suiteId));
  const suite = data.suite;
  return (
    <div>
      <PageHeader
        title={`${suite.name} — settings`}
        description={data.canEdit ? `Suite of agent ${suite.agent_name}` : "Read-only: your role (viewer) cannot change suites."}
        actions={
          <Link href={`/w/${workspaceId}/suites/${suite.id}`} className={buttonClass("secondary")}>
            Back to test cases
          </Link>
        }
      />
      <SuiteForm workspaceId={workspaceId} agents={data.agents} modelConfigs={data.modelConfigs} suite={suite} readOnly={!data.canEdit} />
      <PresetsManager workspaceId={workspaceId} suiteId={suite.id} context={presets} canEdit={data.canEdit} />
      {data.canEdit && (
        <Card className="mt-10 max-w-3xl border-red-200 p-5">
          <h2 className="text-sm font-semibold text-red-800">Delete this suite</h2>
          <p className="mt-1 mb-3 text-sm text-slate-600">The suite and its test cases move to the trash; you can restore them later.</p>
          <DeleteSuiteButton workspaceId={workspaceId} suiteId={suite.id} suiteName={suite.name} />
        </Card>
      )}
    </div>
  );
}
