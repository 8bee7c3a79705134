/**
 * The contract between a foreign format (promptfoo, Langfuse, DeepEval, OpenAI chat JSONL,
 * Inspect AI) and Assay's import/export. A converter is a pure function: text in, Assay case
 * documents plus an honest per-item report out; validation, limits, atomicity and writing stay in
 * ../import-export.ts, the same for every format.
 */

export const FOREIGN_FORMATS = ["promptfoo", "langfuse", "deepeval", "openai-jsonl", "inspect"] as const;
export type ForeignFormat = (typeof FOREIGN_FORMATS)[number];

/** Where an imported case came from, stored as the case's `source` (shown on the case page). */
export type ImportSource = {
  type: "import";
  format: ForeignFormat;
  /** The item's own id where the format has one (Langfuse/Inspect `id`), else null. */
  item_id: string | null;
  /** Langfuse's `sourceTraceId`; null elsewhere. */
  trace_id: string | null;
};

/** A field of the source item that was not carried over, and why. */
export type DroppedField = { field: string; reason: string };

/** One source item's fate: what it became, what was mapped and what was dropped. */
export type ImportItemReport = {
  /** 0-based position of the item in the source (for JSONL: among the non-blank lines). */
  index: number;
  /** How a person recognises the item: its name/description/id, else "test 3" / "line 3". */
  label: string;
  /** `from → to` lines, e.g. "vars.question → initial_message", "assert[0] contains → checks[0] contains_phrases". */
  mapped: string[];
  dropped: DroppedField[];
};

export type ConvertedItem = {
  report: ImportItemReport;
  /** The Assay case document (the test case format, fields as import accepts them); null when the item cannot become a case. */
  case: Record<string, unknown> | null;
  /** Why the item cannot become a case (then `case` is null). */
  error: string | null;
  source: ImportSource;
};

export type Conversion = {
  items: ConvertedItem[];
  /** Document-level notes, e.g. "3 providers: …, possible model configurations". */
  notes: string[];
};

/** What an import converter receives: the document's text and, for a zip bundle, its other entries by path. */
export type ImportInput = { text: string; files?: ReadonlyMap<string, Uint8Array> };

/** An Assay case as export reads it: the test case document (see ../dto.ts TestCaseDocument). */
export type { TestCaseDocument } from "@/lib/test-cases/dto";

/** A foreign export: the file's text, and each case that could not be written (by index and name) with why. */
export type ExportOutput = { text: string; not_exported: { index: number; name: string; reason: string }[] };
