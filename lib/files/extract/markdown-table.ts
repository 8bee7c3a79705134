/** Rows of cell text as a GFM table (spreadsheets, CSV). */

/**
 * A cell must stay on one line and must not end its column early. Backslashes are left alone: the
 * agent reads the raw markdown, where a path like C:\temp doubled to C:\\temp would be wrong data.
 */
function escapeCell(text: string): string {
  return text
    .replace(/\|/g, "\\|")
    .replace(/\r\n|\r|\n/g, "<br>")
    .trim();
}

/**
 * The first row becomes the header (a markdown table needs one; spreadsheets and CSVs nearly always
 * start with one). Ragged rows are padded to the widest row so every line has the same columns.
 */
export function markdownTable(rows: string[][]): string {
  const width = Math.max(1, ...rows.map((r) => r.length));
  const line = (cells: string[]) => {
    const padded = Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? ""));
    return `| ${padded.join(" | ")} |`;
  };
  const [header = [], ...body] = rows;
  return [line(header), `|${" --- |".repeat(width)}`, ...body.map(line)].join("\n");
}
