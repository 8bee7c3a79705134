/**
 * What exceljs will build from a worksheet, counted from the sheet's XML while it is inflated
 * (before exceljs sees it): exceljs makes an object for every stored cell (`<c>`), for every cell
 * of a merged area (`<mergeCell ref="A1:XFD1048576">` would be 17 billion), and a map entry for
 * every cell a data validation covers (`sqref`, often whole columns: a million each). The scan
 * reads tags only, chunk by chunk: a tag split between two chunks is carried to the next one
 * (`<` never occurs inside an XML attribute value, so the text before the last `<` holds whole tags).
 */
import { FileProcessingError } from "./errors";

export type SheetCounts = {
  /** `<c>` elements. */
  cells: number;
  /** Cells of merged areas. */
  merged: number;
  /** Cells covered by data validations (exceljs expands each range cell by cell). */
  validated: number;
};

/** A tag longer than this without a following `<` is not a spreadsheet (cell text is at most 32,767 characters in Excel). */
const MAX_CARRY = 4 * 1024 * 1024;
const TAG = /<(?:[A-Za-z_][\w.-]{0,40}:)?(c|mergeCell|dataValidation)(?=[\s/>])/g;

export class SheetScanner {
  readonly counts: SheetCounts = { cells: 0, merged: 0, validated: 0 };
  private carry = "";
  private readonly decoder = new TextDecoder("latin1");

  constructor(private readonly what: { name: string; part: string }) {}

  push(chunk: Uint8Array): void {
    // latin1 maps every byte to one character: tags and A1 references are ASCII either way.
    const text = this.carry + this.decoder.decode(chunk, { stream: true });
    const open = text.lastIndexOf("<");
    const end = open === -1 ? text.length : open;
    this.scan(text.slice(0, end));
    this.carry = text.slice(end);
    if (this.carry.length > MAX_CARRY) {
      throw new FileProcessingError(`${this.what.name} is not a readable Excel workbook (.xlsx): ${this.what.part} is not a worksheet`);
    }
  }

  end(): SheetCounts {
    this.scan(this.carry);
    this.carry = "";
    return this.counts;
  }

  private scan(text: string): void {
    for (const match of text.matchAll(TAG)) {
      const tag = match[1];
      if (tag === "c") {
        this.counts.cells++;
        continue;
      }
      // The tag's attributes run to the next "<" (the scanned text holds whole tags only): linear in the text.
      const from = match.index + match[0].length;
      const next = text.indexOf("<", from);
      const attributes = text.slice(from, next === -1 ? text.length : next);
      if (tag === "mergeCell") this.counts.merged += areaOf(attribute(attributes, "ref"));
      else this.counts.validated += areaOf(attribute(attributes, "sqref"));
    }
  }
}

const ATTRIBUTES = {
  ref: /(?:^|\s)ref\s*=\s*(?:"([^"]*)"|'([^']*)')/,
  sqref: /(?:^|\s)sqref\s*=\s*(?:"([^"]*)"|'([^']*)')/,
};

function attribute(attributes: string, name: keyof typeof ATTRIBUTES): string {
  const match = ATTRIBUTES[name].exec(attributes);
  return match?.[1] ?? match?.[2] ?? "";
}

/** Cells of a space-separated list of A1 references and ranges ("A1:B2 D4" is 5). */
export function areaOf(refs: string): number {
  let cells = 0;
  for (const ref of refs.trim().split(/\s+/)) {
    const match = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})(?::\$?([A-Za-z]{1,3})\$?(\d{1,7}))?$/.exec(ref);
    if (!match) continue;
    const [, c1 = "A", r1 = "1", c2 = c1, r2 = r1] = match;
    const cols = Math.abs(columnNumber(c2) - columnNumber(c1)) + 1;
    const rows = Math.abs(Number(r2) - Number(r1)) + 1;
    cells += cols * rows;
  }
  return cells;
}

/** "A" → 1, "XFD" → 16384. */
export function columnNumber(letters: string): number {
  return [...letters.toUpperCase()].reduce((n, ch) => n * 26 + (ch.charCodeAt(0) - 64), 0);
}

/** 1 → "A", 16384 → "XFD". */
export function columnLetters(n: number): string {
  let letters = "";
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26)) letters = String.fromCharCode(65 + ((rest - 1) % 26)) + letters;
  return letters;
}
