/**
 * Escaping for report text that came from agents, models or users. A report is opened in tools
 * that interpret what they read: spreadsheets run formulas (`=HYPERLINK(…)` exfiltrates data)
 * and Markdown viewers render tables, code spans, headings and inline HTML. No server-only
 * imports: pure functions, unit-tested in tests/runs/report-escape.test.ts.
 */

/** Characters that make a spreadsheet treat a cell as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Prefixes a formula-leading cell with `'` so Excel, LibreOffice and Google Sheets show it as
 * text (OWASP's recommendation). Numbers stay numbers: a negative number is data, not a formula.
 */
export function escapeCsvCell(value: string): string {
  return FORMULA_START.test(value) && !/^[-+]?\d+(\.\d+)?$/.test(value) ? `'${value}` : value;
}

const HTML: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;" };

/**
 * Makes model text inert in Markdown: HTML tags and entities, code spans, table pipes,
 * emphasis/link/image syntax are escaped, and a leading heading, list or quote marker cannot
 * restructure the report. The result stays on one line when `oneLine` is set (table cells,
 * `**Field**: value` lines), so an embedded newline cannot start a new row or heading.
 */
export function escapeMarkdown(text: string, opts: { oneLine?: boolean } = {}): string {
  let t = text.replace(/[&<>]/g, (c) => HTML[c]!);
  t = t.replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`);
  if (opts.oneLine) t = t.replace(/\s*[\r\n]+\s*/g, " ");
  // Block markers only matter at a line start: headings, quotes, lists, rules, tables.
  t = t.replace(/^([ \t]*)([#>+\-=])/gm, "$1\\$2").replace(/^([ \t]*\d+)([.)])/gm, "$1\\$2");
  return t;
}
