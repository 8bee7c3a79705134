import "server-only";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { caseDocumentPages, slug } from "@/lib/test-cases/import-export";
import { requireLiveSuite } from "@/lib/test-cases/suite-guards";
import { FOREIGN_EXPORTERS } from "@/lib/test-cases/formats";
import type { TestCaseDocument } from "@/lib/test-cases/formats/types";

/**
 * A suite's cases in another tool's format (promptfoo's config, DeepEval goldens, Langfuse dataset
 * items), built whole — the converters need every case — from the same pages the streamed
 * exports read. What a format cannot hold is named: in the file where it allows comments
 * (promptfoo's YAML), and always in `not_exported`, which the route sends as a header.
 */

export type ForeignExportFormat = keyof typeof FOREIGN_EXPORTERS;

const FILE_NAMES: Record<ForeignExportFormat, { suffix: string; contentType: string }> = {
  promptfoo: { suffix: "promptfooconfig.yaml", contentType: "application/yaml; charset=utf-8" },
  deepeval: { suffix: "deepeval-goldens.json", contentType: "application/json; charset=utf-8" },
  langfuse: { suffix: "langfuse-dataset-items.json", contentType: "application/json; charset=utf-8" },
};

export async function exportTestCasesAs(ctx: WorkspaceContext, suiteId: string, format: ForeignExportFormat) {
  requireRole(ctx, "viewer");
  const suite = await requireLiveSuite(ctx, suiteId);
  const cases: TestCaseDocument[] = [];
  for await (const page of caseDocumentPages(ctx, suiteId)) cases.push(...page);
  const out = FOREIGN_EXPORTERS[format](cases, { suiteName: suite.name });
  const file = FILE_NAMES[format];
  return {
    body: out.text,
    filename: `${slug(suite.name)}-${file.suffix}`,
    content_type: file.contentType,
    not_exported: out.not_exported,
  };
}
