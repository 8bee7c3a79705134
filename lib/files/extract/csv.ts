/**
 * CSV files: papaparse (delimiter detection, quoted fields) to a markdown table. The table pads
 * every row to the widest, so its size is rows × columns, not the file's size: a 160 KB file whose
 * first row has 40,000 fields followed by 40,000 one-field rows is 1.6 billion cells. Both the
 * fields read and rows × columns are capped at ASSAY_FILE_MAX_CELLS (./limits.ts); parsing stops
 * at the cap.
 */
import Papa from "papaparse";
import { FileProcessingError } from "./errors";
import type { Extracted, ExtractOptions } from "./types";
import { DEFAULT_MAX_CELLS, formatCount } from "./limits";
import { markdownTable } from "./markdown-table";
import { NO_TEXT, readText } from "./text";

export function extractCsv(bytes: Uint8Array, opts: Pick<ExtractOptions, "name" | "maxCells">): Extracted {
  const { name } = opts;
  const maxCells = opts.maxCells ?? DEFAULT_MAX_CELLS;
  // readText strips a BOM (Excel writes one), so the first header is not "\uFEFFname".
  const text = readText(bytes, name);
  const rows: string[][] = [];
  let columns = 0;
  let errors = 0;
  let delimiter = ",";
  let stopped = false;
  // header: false keeps ragged rows as they are (markdownTable pads them) instead of papaparse
  // folding extra fields into "__parsed_extra". step: one row at a time, so the cap stops the parse.
  Papa.parse<string[]>(text, {
    header: false,
    skipEmptyLines: "greedy",
    step(result, parser) {
      rows.push(result.data);
      columns = Math.max(columns, result.data.length);
      errors += result.errors.length;
      delimiter = result.meta.delimiter;
      if (rows.length * columns > maxCells) {
        stopped = true;
        parser.abort();
      }
    },
  });
  if (stopped) {
    throw new FileProcessingError(
      `${name} is refused: its table has at least ${formatCount(rows.length)} rows × ${formatCount(columns)} columns ` +
        `(every row is padded to the widest), more than the ${formatCount(maxCells)} cells Assay reads from a CSV file ` +
        "(ASSAY_FILE_MAX_CELLS); keep the rows and columns the agent needs",
    );
  }
  return {
    markdown: rows.length === 0 ? NO_TEXT : markdownTable(rows),
    metadata: {
      size_bytes: bytes.byteLength,
      format: "csv",
      rows: rows.length,
      columns,
      delimiter,
      // Unbalanced quotes and the like: the table is still produced, the count tells why it may look odd.
      ...(errors > 0 ? { warnings: errors } : {}),
    },
  };
}
