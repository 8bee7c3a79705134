/** CSV files: papaparse (delimiter detection, quoted fields) to a markdown table. */
import Papa from "papaparse";
import type { Extracted } from "./index";
import { markdownTable } from "./markdown-table";
import { NO_TEXT, readText } from "./text";

export function extractCsv(bytes: Uint8Array, name: string): Extracted {
  // readText strips a BOM (Excel writes one), so the first header is not "\uFEFFname".
  const text = readText(bytes, name);
  // header: false keeps ragged rows as they are (markdownTable pads them) instead of papaparse
  // folding extra fields into "__parsed_extra".
  const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: "greedy" });
  const rows = parsed.data;
  const columns = Math.max(0, ...rows.map((r) => r.length));
  return {
    markdown: rows.length === 0 ? NO_TEXT : markdownTable(rows),
    metadata: {
      size_bytes: bytes.byteLength,
      format: "csv",
      rows: rows.length,
      columns,
      delimiter: parsed.meta.delimiter,
      // Unbalanced quotes and the like: the table is still produced, the count tells why it may look odd.
      ...(parsed.errors.length > 0 ? { warnings: parsed.errors.length } : {}),
    },
  };
}
