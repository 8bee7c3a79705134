/**
 * Caps by content (lib/files/extract/limits.ts, zip.ts): archives are inflated with their bytes
 * counted, whatever their headers declare; sheets, ranges and CSV tables are capped in cells
 * (empty cells between content included) with a message that says what to pick; images in
 * pixels before they are decoded. Each hostile input here is a few KB to a few hundred KB and
 * must be refused in milliseconds, not after the work it asks for.
 */
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { extractFile, FileProcessingError, type ExtractOptions } from "@/lib/files/extract";
import { readZipEntries } from "@/lib/files/extract/zip";
import { makeCsv, makeDocx, makePng, makePptx, makeXlsx } from "./fixtures";
import {
  cornerToCornerXlsx,
  deflatedZeros,
  editFirstSheet,
  hugeBlankPng,
  storedEntries,
  wideHeaderCsv,
  withBigFirstSheet,
  withLyingEntry,
  writeZip,
} from "./hostile-inputs";

const extract = (bytes: Uint8Array, opts: Omit<ExtractOptions, "name"> & { name?: string }) =>
  extractFile(bytes, { name: "fixture", ...opts });

/** The FileProcessingError `work` fails with, and how long it took. */
async function refusal(work: () => Promise<unknown> | unknown): Promise<{ message: string; ms: number }> {
  const started = performance.now();
  const err = await (async () => work())().then(
    () => null,
    (e: unknown) => e,
  );
  const ms = performance.now() - started;
  expect(err).toBeInstanceOf(FileProcessingError);
  return { message: (err as Error).message, ms };
}

/** `work` is refused with exactly `message`, and within `withinMs` (before the costly part). */
async function expectRefusal(work: () => Promise<unknown> | unknown, message: string, withinMs: number) {
  const refused = await refusal(work);
  expect(refused.message).toBe(message);
  expect(refused.ms).toBeLessThan(withinMs);
}

describe("zip archives are read by content", () => {
  it("reads an honest archive's deflated and stored entries", async () => {
    const zip = zipSync({ "a.txt": [strToU8("hello ".repeat(1000)), { level: 6 }], "b.bin": [new Uint8Array([1, 2, 3]), { level: 0 }] });
    const entries = await readZipEntries(zip, { name: "x.zip", document: "zip" }, () => true);
    expect(new TextDecoder().decode(entries["a.txt"])).toBe("hello ".repeat(1000));
    expect([...entries["b.bin"]!]).toEqual([1, 2, 3]);
  });

  it("stops an entry that inflates past its declared size at once: 1 GB declared as 10 bytes, refused in milliseconds", async () => {
    const deck = await makePptx();
    // A slide the extractor reads: the old one-shot inflate ran through the whole gigabyte (~5 s) into a 10-byte buffer.
    const bomb = writeZip([
      ...storedEntries(deck),
      { name: "ppt/slides/slide9.xml", data: deflatedZeros(1024), method: 8, declaredSize: 10 },
    ]);
    expect(bomb.byteLength).toBeLessThan(1.1 * 1024 * 1024);
    await expectRefusal(
      () => extract(bomb, { type: "powerpoint", name: "deck.pptx" }),
      'deck.pptx is refused: its entry "ppt/slides/slide9.xml" inflates to more than the 10 bytes its header declares (a forged or corrupt archive)',
      500,
    );
  });

  it.each([
    ["word", "memo.docx", makeDocx],
    ["excel", "sales.xlsx", makeXlsx],
  ] as const)("checks a %s archive entry by entry before its library unzips it (mammoth, exceljs)", async (type, name, make) => {
    const bomb = withLyingEntry(await make(), 1024);
    await expectRefusal(
      () => extract(bomb, { type, name }),
      `${name} is refused: its entry "docProps/custom.xml" inflates to more than the 10 bytes its header declares (a forged or corrupt archive)`,
      500,
    );
  });

  it("counts every central-directory entry, also entries that share one compressed stream", async () => {
    // 300 central entries pointing at one 1 MB stream: 300 MB unpacked from a 15 KB archive.
    const data = deflatedZeros(1);
    const zip = writeZip(Array.from({ length: 300 }, (_, i) => ({ name: `e${i}`, data, method: 8 as const, declaredSize: 1024 * 1024 })));
    const central = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
    for (let at = zip.indexOf(central); at !== -1; at = zip.indexOf(central, at + 4)) zip.writeUInt32LE(0, at + 42);
    await expect(readZipEntries(zip, { name: "x.zip", document: "zip" }, () => false)).rejects.toThrow(
      "x.zip is refused: its archive unpacks to more than 200 MB",
    );
  });

  it("refuses a truncated stream and an archive that is not a zip", async () => {
    const truncated = writeZip([{ name: "a", data: deflatedZeros(1).subarray(0, 100), method: 8, declaredSize: 1024 * 1024 }]);
    await expect(readZipEntries(truncated, { name: "t.zip", document: "zip archive" }, () => true)).rejects.toThrow(
      "t.zip is not a readable zip archive: it is not a valid zip archive (corrupt or truncated)",
    );
    await expect(readZipEntries(strToU8("PK not a zip"), { name: "n.zip", document: "zip archive" }, () => true)).rejects.toThrow(
      "n.zip is not a readable zip archive: it is not a valid zip archive (corrupt or truncated)",
    );
  });
});

describe("sheets are capped in cells", () => {
  it("refuses a sheet whose content spans A1:XFD1048576 before reading a cell, and says which range to pick", async () => {
    const xlsx = await cornerToCornerXlsx();
    expect(xlsx.byteLength).toBeLessThan(10_000);
    await expectRefusal(
      () => extract(xlsx, { type: "excel", name: "corners.xlsx" }),
      'corners.xlsx: sheet "Data" spans A1:XFD1048576 (17,179,869,184 cells), more than the 200,000 cells Assay reads from one sheet ' +
        '(ASSAY_FILE_MAX_CELLS); choose a smaller range, e.g. "range": "A1:XFD12"',
      2000,
    );
    // The range it suggests is read.
    const { markdown } = await extract(xlsx, { type: "excel", name: "corners.xlsx", range: "A1:C2" });
    expect(markdown).toBe("## Sheet: Data (A1:C2)\n\n| top left |  |  |\n| --- | --- | --- |\n|  |  |  |");
  });

  it("caps a range the same way, and the sheets shown together", async () => {
    const big = withBigFirstSheet(await makeXlsx(), 600, 10);
    const { message } = await refusal(() => extract(big, { type: "excel", name: "big.xlsx", range: "A1:J600", maxCells: 5000 }));
    expect(message).toBe(
      'big.xlsx: range A1:J600 of sheet "Q1" spans A1:J600 (6,000 cells), more than the 5,000 cells Assay reads from one sheet ' +
        '(ASSAY_FILE_MAX_CELLS); choose a smaller range, e.g. "range": "A1:J500"',
    );
    const two = withBigFirstSheet(await makeXlsx(), 400, 10);
    const both = await refusal(() => extract(two, { type: "excel", name: "two.xlsx", maxCells: 4005 }));
    expect(both.message).toBe(
      'two.xlsx: its sheets span 4,006 cells together ("Q1" 4,000, "Q2" 6), more than the 4,005 cells Assay reads (ASSAY_FILE_MAX_CELLS); ' +
        'choose one with "sheet", or a range with "range"',
    );
    expect((await extract(big, { type: "excel", name: "big.xlsx", range: "A1:J500", maxCells: 5000 })).metadata).toMatchObject({
      rows: 500,
      columns: 10,
    });
  });

  it("refuses a workbook whose stored and merged cells exceed twice the cap, before exceljs builds them", async () => {
    // One merged area of the whole sheet: exceljs would create 17 billion cells while loading.
    const merged = editFirstSheet(await makeXlsx(), (xml) =>
      xml.replace("</sheetData>", '</sheetData><mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>'),
    );
    await expectRefusal(
      () => extract(merged, { type: "excel", name: "merged.xlsx" }),
      "merged.xlsx is refused: its sheets hold 17,179,869,202 cells (merged areas counted cell by cell), more than the 400,000 Assay loads " +
        "from one workbook (twice ASSAY_FILE_MAX_CELLS); save the sheet or range the agent needs as its own workbook",
      2000,
    );
  });

  it("reads a workbook whose data validation covers whole columns (exceljs would expand it cell by cell): the validation is dropped", async () => {
    const plain = await extract(await makeXlsx(), { type: "excel", name: "v.xlsx" });
    const validated = editFirstSheet(await makeXlsx(), (xml) =>
      xml.replace(
        "</sheetData>",
        '</sheetData><dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="A2:A1048576 C2:D1048576"><formula1>"a,b"</formula1></dataValidation></dataValidations>',
      ),
    );
    const started = performance.now();
    const out = await extract(validated, { type: "excel", name: "v.xlsx" });
    expect(out.markdown).toBe(plain.markdown);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe("CSV tables are capped in rows × columns", () => {
  it("refuses a 160 KB CSV whose first row has 40,000 fields followed by 40,000 one-field rows (1.6 billion padded cells)", async () => {
    const csv = wideHeaderCsv();
    expect(csv.byteLength).toBe(160_000);
    await expectRefusal(
      () => extract(csv, { type: "csv", name: "wide.csv" }),
      "wide.csv is refused: its table has at least 6 rows × 40,000 columns (every row is padded to the widest), more than the 200,000 cells " +
        "Assay reads from a CSV file (ASSAY_FILE_MAX_CELLS); keep the rows and columns the agent needs",
      1000,
    );
  });

  it("reads a table within the cap as before", async () => {
    const { markdown, metadata } = await extract(makeCsv(), { type: "csv", maxCells: 9 });
    expect(markdown).toBe("| name | city | score |\n| --- | --- | --- |\n| Ada | London | 90 |\n| Linus | Helsinki | 85 |");
    expect(metadata).toMatchObject({ rows: 3, columns: 3 });
    await refusal(() => extract(makeCsv(), { type: "csv", maxCells: 8 }));
  });
});

describe("images are capped in pixels", () => {
  it("refuses a 260 KB PNG of 16,383 × 16,383 pixels from its header, before decoding", async () => {
    const png = hugeBlankPng();
    expect(png.byteLength).toBeLessThan(300_000);
    await expectRefusal(
      () => extract(png, { type: "image", name: "blank.png" }),
      "blank.png is refused: it is 16,383×16,383 pixels (268 megapixels), more than the 40 megapixels Assay decodes; scale it down first",
      1000,
    );
  });

  it("reads an image under the cap", async () => {
    const { image } = await extract(await makePng(40, 30), { type: "image", name: "ok.png" });
    expect(image).toMatchObject({ width: 40, height: 30 });
  });
});
