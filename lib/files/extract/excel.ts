/**
 * Excel (.xlsx) with exceljs: every sheet, one sheet, or an A1 range of a sheet as markdown tables.
 * Cells are shown as their values (a formula's cached result, a date as an ISO date), which is what
 * a user looking at the sheet sees.
 *
 * Bounded by content (./limits.ts): before exceljs loads the workbook, its sheets' XML is counted
 * while the archive is inflated (./xlsx-scan.ts) and a workbook that would make exceljs build more
 * than twice ASSAY_FILE_MAX_CELLS cells is refused; a sheet or range whose area (empty cells
 * between content included) is over ASSAY_FILE_MAX_CELLS is refused before any cell is read, with
 * a range to choose instead. Data validations are dropped before loading when they cover many
 * cells: exceljs expands them cell by cell and the text never shows them.
 */
import ExcelJS from "exceljs";
import { strFromU8, strToU8, zipSync } from "fflate";
import { FileProcessingError } from "./errors";
import type { Extracted, ExtractOptions } from "./types";
import { DEFAULT_MAX_CELLS, formatCount } from "./limits";
import { markdownTable } from "./markdown-table";
import { columnLetters, columnNumber, SheetScanner, type SheetCounts } from "./xlsx-scan";
import { inflateZip } from "./zip";

/** A rectangle of a sheet, 1-based and inclusive. */
type Area = { top: number; left: number; bottom: number; right: number };

const DOCUMENT = "Excel workbook (.xlsx)";
/** The parts exceljs reads as worksheets. */
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/;
/** Cells a sheet's data validations may cover before they are dropped rather than expanded by exceljs. */
const MAX_VALIDATED_CELLS = 10_000;

export async function extractExcel(bytes: Uint8Array, opts: ExtractOptions): Promise<Extracted> {
  const maxCells = opts.maxCells ?? DEFAULT_MAX_CELLS;
  const workbook = await loadWorkbook(bytes, opts.name, maxCells);
  const selected = Boolean(opts.sheet || opts.range);
  const chosen = selected ? [findSheet(workbook, opts)] : workbook.worksheets;
  const areas = chosen.map((ws) => sheetArea(ws, opts, maxCells));
  assertTotalArea(chosen, areas, opts.name, maxCells);
  const parts = chosen.map((ws, i) => sheetPart(ws, areas[i]!, opts));
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

async function loadWorkbook(bytes: Uint8Array, name: string, maxCells: number): Promise<ExcelJS.Workbook> {
  const input = await boundedWorkbook(bytes, name, maxCells);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs types its input as an ArrayBuffer-like "Buffer"; at runtime it reads a Node Buffer.
    await workbook.xlsx.load(Buffer.from(input.buffer, input.byteOffset, input.byteLength) as unknown as ExcelJS.Buffer);
  } catch {
    throw new FileProcessingError(`${name} is not a readable ${DOCUMENT}: its content could not be parsed`);
  }
  if (workbook.worksheets.length === 0) throw new FileProcessingError(`${name} has no worksheets`);
  return workbook;
}

/**
 * The archive exceljs may load: checked entry by entry (./zip.ts) while each worksheet's cells are
 * counted; refused when exceljs would build more than twice `maxCells` cells; rewritten without
 * the data validations of sheets where they cover more than MAX_VALIDATED_CELLS cells.
 */
async function boundedWorkbook(bytes: Uint8Array, name: string, maxCells: number): Promise<Uint8Array> {
  const scanners = new Map<string, SheetScanner>();
  const counts = new Map<string, SheetCounts>();
  await inflateZip(
    bytes,
    { name, document: DOCUMENT },
    {
      onChunk(path, chunk) {
        if (!WORKSHEET.test(path)) return;
        let scanner = scanners.get(path);
        if (!scanner) scanners.set(path, (scanner = new SheetScanner({ name, part: path })));
        scanner.push(chunk);
      },
      onEntryEnd(path) {
        const scanner = scanners.get(path);
        if (scanner) counts.set(path, scanner.end());
      },
    },
  );
  const heavy = [...counts].filter(([, c]) => c.validated > MAX_VALIDATED_CELLS).map(([path]) => path);
  const built = [...counts.values()].reduce(
    (sum, c) => sum + c.cells + c.merged + (c.validated > MAX_VALIDATED_CELLS ? 0 : c.validated),
    0,
  );
  const budget = 2 * maxCells;
  if (built > budget) {
    throw new FileProcessingError(
      `${name} is refused: its sheets hold ${formatCount(built)} cells (merged areas counted cell by cell), more than the ` +
        `${formatCount(budget)} Assay loads from one workbook (twice ASSAY_FILE_MAX_CELLS); save the sheet or range the agent needs as its own workbook`,
    );
  }
  return heavy.length === 0 ? bytes : withoutValidations(bytes, name, new Set(heavy));
}

/** The same workbook with the `<dataValidations>` of `sheets` removed (stored, not compressed: exceljs reads it at once). */
async function withoutValidations(bytes: Uint8Array, name: string, sheets: Set<string>): Promise<Uint8Array> {
  const parts = await inflateZip(bytes, { name, document: DOCUMENT }, { keep: () => true });
  for (const path of sheets) {
    const xml = strFromU8(parts.get(path)!);
    parts.set(
      path,
      strToU8(xml.replace(/<(\w+:)?dataValidations\b[^>]*\/>|<(\w+:)?dataValidations\b[\s\S]*?<\/(\w+:)?dataValidations>/g, "")),
    );
  }
  return zipSync(Object.fromEntries([...parts].map(([path, content]) => [path, [content, { level: 0 }]])));
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

/**
 * The area of a sheet to show: the used area, or the range clipped to it; null when empty.
 * Refused when it is larger than `maxCells`, before a cell is read (A1 and XFD1048576 alone span
 * 17 billion cells), with a range of the allowed size to choose instead.
 */
function sheetArea(ws: ExcelJS.Worksheet, opts: ExtractOptions, maxCells: number): Area | null {
  const used = usedArea(ws);
  const area = opts.range && used ? clip(parseRange(opts.range, opts.name), used) : used;
  if (!area) return null;
  const cells = cellsOf(area);
  if (cells <= maxCells) return area;
  const what = opts.range ? `range ${opts.range} of sheet "${ws.name}"` : `sheet "${ws.name}"`;
  throw new FileProcessingError(
    `${opts.name}: ${what} spans ${a1(area)} (${formatCount(cells)} cells), more than the ${formatCount(maxCells)} cells Assay reads ` +
      `from one sheet (ASSAY_FILE_MAX_CELLS); choose a smaller range, e.g. "range": "${a1(fitting(area, maxCells))}"`,
  );
}

/** Every sheet of a workbook is shown when none is chosen: together they stay within `maxCells` too. */
function assertTotalArea(sheets: ExcelJS.Worksheet[], areas: (Area | null)[], name: string, maxCells: number): void {
  const cells = areas.map((area) => (area ? cellsOf(area) : 0));
  const total = cells.reduce((sum, n) => sum + n, 0);
  if (total <= maxCells) return;
  const each = sheets.map((ws, i) => `"${ws.name}" ${formatCount(cells[i]!)}`).join(", ");
  throw new FileProcessingError(
    `${name}: its sheets span ${formatCount(total)} cells together (${each}), more than the ${formatCount(maxCells)} cells Assay reads ` +
      `(ASSAY_FILE_MAX_CELLS); choose one with "sheet", or a range with "range"`,
  );
}

function cellsOf(area: Area): number {
  return (area.bottom - area.top + 1) * (area.right - area.left + 1);
}

/** The area's top-left part that has at most `maxCells` cells (all its columns when they fit, else the first 26). */
function fitting(area: Area, maxCells: number): Area {
  const width = area.right - area.left + 1;
  const columns = width <= maxCells ? width : 26;
  const rows = Math.max(1, Math.floor(maxCells / columns));
  return {
    top: area.top,
    left: area.left,
    right: area.left + Math.min(columns, width) - 1,
    bottom: Math.min(area.bottom, area.top + rows - 1),
  };
}

function a1(area: Area): string {
  return `${columnLetters(area.left)}${area.top}:${columnLetters(area.right)}${area.bottom}`;
}

/** One sheet as "## Sheet: <name>" and a table; the heading says which sheet (and range) the agent reads. */
function sheetPart(ws: ExcelJS.Worksheet, area: Area | null, opts: ExtractOptions): { markdown: string; rows: number; columns: number } {
  const heading = `## Sheet: ${ws.name}${opts.range ? ` (${opts.range})` : ""}`;
  if (!area) return { markdown: `${heading}\n\n${opts.range ? "_(no content in this range)_" : "_(empty sheet)_"}`, rows: 0, columns: 0 };
  const rows: string[][] = [];
  for (let r = area.top; r <= area.bottom; r++) {
    // find*, not get*: exceljs creates the rows and cells it is asked for.
    const row = ws.findRow(r);
    const cells: string[] = [];
    for (let c = area.left; c <= area.right; c++) cells.push(row ? cellText(row.findCell(c)?.value) : "");
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
