/**
 * The foreign formats Assay imports and exports, by name: one converter module per tool (the
 * contract is ./types.ts). lib/test-cases/import-file.ts and ../foreign-export.ts dispatch here.
 */
import { importPromptfoo } from "./promptfoo";
import { exportPromptfoo } from "./promptfoo-export";
import { importLangfuse, exportLangfuse } from "./langfuse";
import { importDeepEval, exportDeepEval } from "./deepeval";
import { importOpenAiJsonl } from "./openai-jsonl";
import { importInspect } from "./inspect";
import type { Conversion, ExportOutput, ForeignFormat, ImportInput, TestCaseDocument } from "./types";

export const FOREIGN_IMPORTERS: Record<ForeignFormat, (input: ImportInput) => Conversion> = {
  promptfoo: importPromptfoo,
  langfuse: importLangfuse,
  deepeval: importDeepEval,
  "openai-jsonl": importOpenAiJsonl,
  inspect: importInspect,
};

export type CaseExporter = (cases: TestCaseDocument[], opts: { suiteName: string }) => ExportOutput;

/** Formats a suite's cases export to (openai-jsonl exports a run's transcripts instead: lib/runs/export-openai.ts). */
export const FOREIGN_EXPORTERS = {
  promptfoo: exportPromptfoo,
  langfuse: exportLangfuse,
  deepeval: exportDeepEval,
} satisfies Record<string, CaseExporter>;
