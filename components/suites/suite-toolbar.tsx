"use client";
import { useState } from "react";
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";
import { MenuButton, type MenuEntry } from "@/components/ui/menu-button";
import { StartRunButton, type SuiteLaunch } from "@/components/runs/start-run-button";
import { CompareButton } from "@/components/comparisons/compare-dialog";
import { MatrixButton } from "@/components/matrices/matrix-dialog";
import { ImportDialog } from "./import-export-dialog";
import { useExportCases } from "./import-export-buttons";

/**
 * The suite page's actions: "Run suite" is the one primary button (first, so a narrow screen
 * never wraps it away) and "New test case" beside it; everything else sits in one "More actions"
 * menu — where to go (runs, comparisons, matrix runs, settings) apart from what to start
 * (a new comparison or matrix run, import, export). The dialogs the menu opens live here, outside
 * the menu, so closing the menu does not close them.
 */

type Dialog = "compare" | "matrix" | "import";

export function SuiteToolbar({ suite, canEdit }: { suite: SuiteLaunch; canEdit: boolean }) {
  const { workspaceId, suiteId } = suite;
  const base = `/w/${workspaceId}/suites/${suiteId}`;
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const exporter = useExportCases(workspaceId, suiteId);
  const opener = (d: Dialog) => ({ open: dialog === d, onClose: () => setDialog(null) });

  const entries: MenuEntry[] = [
    { kind: "link", label: "Runs & trends", href: `${base}/runs` },
    { kind: "link", label: "Comparisons", href: `${base}/comparisons` },
    { kind: "link", label: "Matrix runs", href: `${base}/matrices` },
    { kind: "link", label: "Settings", href: `${base}/settings` },
    { kind: "separator", key: "start" },
    ...(canEdit
      ? ([
          { kind: "action", label: "New comparison…", onSelect: () => setDialog("compare") },
          { kind: "action", label: "New matrix run…", onSelect: () => setDialog("matrix") },
          { kind: "action", label: "Import cases…", onSelect: () => setDialog("import") },
        ] satisfies MenuEntry[])
      : []),
    { kind: "action", label: "Export YAML", onSelect: () => exporter.download("yaml"), disabled: exporter.pending },
    { kind: "action", label: "Export JSON", onSelect: () => exporter.download("json"), disabled: exporter.pending },
    { kind: "action", label: "Export for promptfoo", onSelect: () => exporter.download("promptfoo"), disabled: exporter.pending },
    { kind: "action", label: "Export for DeepEval", onSelect: () => exporter.download("deepeval"), disabled: exporter.pending },
    { kind: "action", label: "Export for Langfuse", onSelect: () => exporter.download("langfuse"), disabled: exporter.pending },
  ];

  return (
    <>
      {canEdit && <StartRunButton suite={suite} />}
      {canEdit && (
        <Link href={`${base}/cases/new`} className={buttonClass("secondary")}>
          New test case
        </Link>
      )}
      <MenuButton label="More actions" entries={entries} />
      {canEdit && (
        <>
          <CompareButton workspaceId={workspaceId} suiteId={suiteId} opener={opener("compare")} />
          <MatrixButton workspaceId={workspaceId} suiteId={suiteId} opener={opener("matrix")} />
          <ImportDialog workspaceId={workspaceId} suiteId={suiteId} opener={opener("import")} />
        </>
      )}
      {exporter.note && (
        <p role="status" className="w-full text-right text-sm text-amber-800">
          {exporter.note}
        </p>
      )}
      {exporter.error && (
        <p role="status" className="w-full text-right text-sm text-red-700">
          Export failed: {exporter.error}
        </p>
      )}
    </>
  );
}
