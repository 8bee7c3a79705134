/**
 * Excel (.xlsx) with exceljs: every sheet, one sheet, or an A1 range of a sheet as markdown tables.
 * Cells are shown as their values (a formula's cached result, a date as an ISO date), which is what
 * a user looking at the sheet sees.
 */
import ExcelJS from "exceljs";
import { FileProcessingError } from "./errors";
import type { Extracted, ExtractOptions } from "./index";
import { markdownTable } from "./markdown-table";
import { assertZipWithinLimit } from "./zip";

/** A rectangle of a sheet, 1-based and inclusive. */
type Area = { top: number; left: number; bottom: number; right: number };

export async function extractExcel(bytes: Uint8Array, opts: ExtractOptions): Promise<Extracted> {
  const workbook = await loadWorkbook(bytes, opts.name);
  const selected = Boolean(opts.sheet || opts.range);
  const chosen = selected ? [findSheet(workbook, opts)] : workbook.worksheets;
  const parts = chosen.map((ws) => sheetPart(ws, opts));
  return {
    markdown: parts.map((p) => p.markdown).join("\n\n"),
    metadata: {
      size_bytes: bytes.byteLength,
      format: "xlsx",
      sheets: workbook.worksheets.map((ws) => ws.name),
      sheet: selected ? chosen[0]?.name : null,
      range: opts.range ?? null,
      rows: parts.reduce((sum, p) => sum + p.rows, 0),
      columns: Math.max(0, ...parts.map((p) => p.columns)),
    },
  };
}

async function loadWorkbook(bytes: Uint8Array, name: string): Promise<ExcelJS.Workbook> {
  assertZipWithinLimit(bytes, { name, document: "Excel workbook (.xlsx)" });
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as an ArrayBuffer-like "Buffer"; at runtime it reads a Node Buffer.
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer);
  } catch {
    throw new FileProcessingError(`${name} is not a readable Excel workbook (.xlsx): its content could not be parsed`);
  }
  if (workbook.worksheets.length === 0) throw new FileProcessingError(`${name} has no worksheets`);
  return workbook;
}

/** The named sheet, or the first one when only a range is given. */
function findSheet(workbook: ExcelJS.Workbook, opts: ExtractOptions): ExcelJS.Worksheet {
  const first = workbook.worksheets[0] as ExcelJS.Worksheet;
  if (!opts.sheet) return first;
  // Excel itself treats sheet names case-insensitively ("q1" and "Q1" cannot coexist).
  const wanted = opts.sheet.toLowerCase();
  const ws = workbook.worksheets.find((w) => w.name.toLowerCase() === wanted);
  if (ws) return ws;
  const names = workbook.worksheets.map((w) => `"${w.name}"`).join(", ");
  throw new FileProcessingError(`${opts.name}: sheet "${opts.sheet}" does not exist; the workbook's sheets are ${names}`);
}

/** One sheet as "## Sheet: <name>" and a table; the heading says which sheet (and range) the agent reads. */
function sheetPart(ws: ExcelJS.Worksheet, opts: ExtractOptions): { markdown: string; rows: number; columns: number } {
  const heading = `## Sheet: ${ws.name}${opts.range ? ` (${opts.range})` : ""}`;
  const used = usedArea(ws);
  const area = opts.range && used ? clip(parseRange(opts.range, opts.name), used) : used;
  if (!area) return { markdown: `${heading}\n\n${opts.range ? "_(no content in this range)_" : "_(empty sheet)_"}`, rows: 0, columns: 0 };
  const rows: string[][] = [];
  for (let r = area.top; r <= area.bottom; r++) {
    const row = ws.getRow(r);
    const cells: string[] = [];
    for (let c = area.left; c <= area.right; c++) cells.push(cellText(row.getCell(c).value));
    rows.push(cells);
  }
  return { markdown: `${heading}\n\n${markdownTable(rows)}`, rows: rows.length, columns: area.right - area.left + 1 };
}

/**
 * A range keeps its top-left corner (so its first row is the header the user chose) but stops at
 * the last row and column with content: "A1:Z100000" must not produce 100,000 empty rows.
 */
function clip(range: Area, used: Area): Area | null {
  const area = { ...range, bottom: Math.min(range.bottom, used.bottom), right: Math.min(range.right, used.right) };
  return area.top > area.bottom || area.left > area.right ? null : area;
}

/** The smallest rectangle holding every non-empty cell (rows formatted but empty are not content). */
function usedArea(ws: ExcelJS.Worksheet): Area | null {
  let area: Area | null = null;
  ws.eachRow((row, r) => {
    row.eachCell((cell, c) => {
      if (cellText(cell.value) === "") return;
      area = area
        ? { top: Math.min(area.top, r), left: Math.min(area.left, c), bottom: Math.max(area.bottom, r), right: Math.max(area.right, c) }
        : { top: r, left: c, bottom: r, right: c };
    });
  });
  return area;
}

/** "B2" or "A1:C3" (either corner first) as an Area. */
function parseRange(range: string, name: string): Area {
  const match = /^([A-Z]{1,3})([1-9]\d{0,6})(?::([A-Z]{1,3})([1-9]\d{0,6}))?$/.exec(range.toUpperCase());
  if (!match) throw new FileProcessingError(`${name}: range "${range}" is not an A1 range such as A1:E100`);
  const [, c1 = "A", r1 = "1", c2 = c1, r2 = r1] = match;
  const [cols, rows] = [
    [columnNumber(c1), columnNumber(c2)],
    [Number(r1), Number(r2)],
  ];
  return { top: Math.min(...rows), bottom: Math.max(...rows), left: Math.min(...cols), right: Math.max(...cols) };
}

function columnNumber(letters: string): number {
  return [...letters].reduce((n, ch) => n * 26 + (ch.charCodeAt(0) - 64), 0);
}

/** What the cell shows, as plain text. */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return formatNumber(value);
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return isoDate(value);
  if (typeof value !== "object") return String(value);
  if ("richText" in value && Array.isArray(value.richText)) return value.richText.map((run: { text?: string }) => run.text ?? "").join("");
  if ("formula" in value || "sharedFormula" in value) {
    // A workbook saved without calculation has no cached result: show the formula itself.
    const v = value as { formula?: string; sharedFormula?: string; result?: unknown };
    return v.result === undefined ? `=${v.formula ?? v.sharedFormula}` : cellText(v.result);
  }
  if ("hyperlink" in value) return cellText((value as { text?: unknown }).text);
  if ("error" in value) return String((value as { error: unknown }).error);
  return "";
}

/** Excel shows 15 significant digits; binary floating-point noise (0.30000000000000004) is not data. */
function formatNumber(n: number): string {
  return String(Number(n.toPrecision(15)));
}

/** Excel dates have no time zone and exceljs reads them as UTC: midnight is a plain date. */
function isoDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return "";
  const rounded = new Date(Math.round(d.getTime() / 1000) * 1000).toISOString();
  return rounded.endsWith("T00:00:00.000Z") ? rounded.slice(0, 10) : rounded.slice(0, 19);
}
