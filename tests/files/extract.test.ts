import ExcelJS from "exceljs";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { extractFile, FileProcessingError, type ExtractOptions } from "@/lib/files/extract";
import { corruptPdf, DOCX_TABLE, makeCsv, makeDocx, makePdf, makePng, makePptx, makeXlsx } from "./fixtures";
import { rejectionOf } from "../helpers/errors";

const extract = (bytes: Uint8Array, opts: Omit<ExtractOptions, "name"> & { name?: string }) =>
  extractFile(bytes, { name: "fixture", ...opts });

/** The FileProcessingError `promise` rejects with (fails the test on any other outcome). */
const processingError = (promise: Promise<unknown>) => rejectionOf(promise, FileProcessingError);

describe("pdf", () => {
  it("extracts every page as a section, in order", async () => {
    const { markdown, metadata } = await extract(await makePdf(), { type: "pdf" });
    expect(markdown).toMatch(/^## Page 1\n\nAlpha page one\n\n## Page 2\n\nBravo page two\n\n## Page 3\n\nCharlie page three$/);
    expect(metadata).toMatchObject({ format: "pdf", pages: 3, extracted_pages: [1, 2, 3] });
  });

  it("extracts only the selected pages", async () => {
    const bytes = await makePdf();
    const { markdown, metadata } = await extract(bytes, { type: "pdf", pages: [3, 1] });
    expect(markdown).toContain("## Page 1\n\nAlpha page one");
    expect(markdown).toContain("## Page 3\n\nCharlie page three");
    expect(markdown).not.toContain("Bravo");
    expect(markdown).not.toContain("## Page 2");
    expect(metadata).toMatchObject({ pages: 3, extracted_pages: [1, 3], size_bytes: bytes.byteLength });
  });

  it("refuses a page beyond the document, naming it and the page count", async () => {
    const err = await processingError(extract(await makePdf(), { type: "pdf", pages: [1, 9], name: "report.pdf" }));
    expect(err.message).toBe("report.pdf: page 9 does not exist: the PDF has 3 pages");
  });

  it("leaves the caller's bytes usable (pdf.js detaches the buffer it is given)", async () => {
    const bytes = new Uint8Array(await makePdf());
    await extract(bytes, { type: "pdf" });
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
  });

  it("reports a corrupt PDF as unreadable, without the parser's stack", async () => {
    const err = await processingError(extract(corruptPdf(), { type: "pdf", name: "broken.pdf" }));
    expect(err.message).toBe("broken.pdf is not a readable PDF: its structure is invalid (corrupt or truncated file)");
    expect(err.message).not.toMatch(/Exception|at /);
  });

  it("reports content of another type than declared", async () => {
    const err = await processingError(extract(await makePng(10, 10), { type: "pdf", name: "scan.pdf" }));
    expect(err.message).toBe("scan.pdf was declared as pdf but its content is image/png");
  });
});

describe("word", () => {
  it("turns headings, emphasis and the table into markdown", async () => {
    const { markdown, metadata } = await extract(await makeDocx(), { type: "word" });
    expect(markdown).toContain("# Quarterly Invoices");
    expect(markdown).toContain("**Payment is due in 30 days.**");
    // The first table row is the header: no invented empty header above it.
    const [header, rule, ...rows] = DOCX_TABLE.map((r) => `| ${r.join(" | ")} |`);
    expect(markdown).toContain([header, "| --- | --- |", rule, ...rows].join("\n"));
    expect(metadata).toMatchObject({ format: "docx" });
  });

  it("reports a zip that is not a Word document", async () => {
    const err = await processingError(extract(await makeXlsx(), { type: "word", name: "memo.docx" }));
    expect(err.message).toContain(
      "memo.docx was declared as word but its content is application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
  });
});

describe("excel", () => {
  it("extracts every sheet with its values: formula results and ISO dates", async () => {
    const { markdown, metadata } = await extract(await makeXlsx(), { type: "excel" });
    expect(markdown).toContain(
      [
        "## Sheet: Q1",
        "",
        "| Region | Revenue | Date | Total |",
        "| --- | --- | --- | --- |",
        "| North | 100 | 2024-01-15 | 200 |",
        "| South | 250 | 2024-02-20 | 500 |",
      ].join("\n"),
    );
    expect(markdown).toContain("## Sheet: Q2\n\n| Region | Revenue |\n| --- | --- |\n| East | 300 |\n| West | 400 |");
    expect(metadata).toMatchObject({ format: "xlsx", sheets: ["Q1", "Q2"], sheet: null, rows: 6, columns: 4 });
  });

  it("extracts only the chosen sheet (named case-insensitively, as Excel does)", async () => {
    const { markdown, metadata } = await extract(await makeXlsx(), { type: "excel", sheet: "q2" });
    expect(markdown).toContain("| East | 300 |");
    expect(markdown).not.toContain("North");
    expect(metadata).toMatchObject({ sheet: "Q2", rows: 3, columns: 2 });
  });

  it.each([
    {
      title: "extracts exactly the cells of a range",
      choice: { sheet: "Q1", range: "B2:D3" },
      markdown: "## Sheet: Q1 (B2:D3)\n\n| 100 | 2024-01-15 | 200 |\n| --- | --- | --- |\n| 250 | 2024-02-20 | 500 |",
      metadata: { sheet: "Q1", range: "B2:D3", rows: 2, columns: 3 },
    },
    {
      title: "reads a range from the first sheet when no sheet is named, stopping at the last cell with content",
      choice: { range: "A1:B1000" },
      markdown: "## Sheet: Q1 (A1:B1000)\n\n| Region | Revenue |\n| --- | --- |\n| North | 100 |\n| South | 250 |",
      metadata: { sheet: "Q1", rows: 3, columns: 2 },
    },
  ])("$title", async ({ choice, markdown: expected, metadata: expectedMetadata }) => {
    const { markdown, metadata } = await extract(await makeXlsx(), { type: "excel", ...choice });
    expect(markdown).toBe(expected);
    expect(metadata).toMatchObject(expectedMetadata);
  });

  it("shows rich text and hyperlinks as their text, escaping pipes and line breaks", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Notes");
    ws.addRow(["Note", "Link"]);
    ws.addRow([
      { richText: [{ text: "bold ", font: { bold: true } }, { text: "a|b" }] },
      { text: "Docs", hyperlink: "https://example.com" },
    ]);
    ws.addRow(["line1\nline2", true]);
    const bytes = Buffer.from(await wb.xlsx.writeBuffer());
    const { markdown } = await extract(bytes, { type: "excel" });
    expect(markdown).toBe("## Sheet: Notes\n\n| Note | Link |\n| --- | --- |\n| bold a\\|b | Docs |\n| line1<br>line2 | TRUE |");
  });

  it("refuses an unknown sheet, listing the workbook's sheets", async () => {
    const err = await processingError(extract(await makeXlsx(), { type: "excel", sheet: "Q3", name: "sales.xlsx" }));
    expect(err.message).toBe('sales.xlsx: sheet "Q3" does not exist; the workbook\'s sheets are "Q1", "Q2"');
  });
});

describe("powerpoint", () => {
  it("extracts slides in presentation order", async () => {
    const { markdown, metadata } = await extract(await makePptx(), { type: "powerpoint" });
    expect(markdown).toBe(
      [
        "## Slide 1\n\nIntro slide\n\nBody of slide 1",
        "## Slide 2\n\nDetails slide\n\nBody of slide 2",
        "## Slide 3\n\nSummary slide\n\nBody of slide 3",
      ].join("\n\n"),
    );
    expect(metadata).toMatchObject({ format: "pptx", slides: 3, extracted_slides: [1, 2, 3] });
  });

  it("follows the presentation's slide list, not the slide file names", async () => {
    // Move the last slide first, as a user dragging it in PowerPoint does: slide3.xml keeps its name.
    const parts = unzipSync(new Uint8Array(await makePptx()));
    const xml = strFromU8(parts["ppt/presentation.xml"]!);
    parts["ppt/presentation.xml"] = strToU8(
      xml
        .replace('<p:sldId id="256" r:id="rId2"/>', '<p:sldId id="258" r:id="rId4"/><p:sldId id="256" r:id="rId2"/>')
        .replace(/(<p:sldId id="257" r:id="rId3"\/>)<p:sldId id="258" r:id="rId4"\/>/, "$1"),
    );
    const { markdown } = await extract(zipSync(parts), { type: "powerpoint", pages: [1, 3] });
    expect(markdown).toBe("## Slide 1\n\nSummary slide\n\nBody of slide 3\n\n## Slide 3\n\nDetails slide\n\nBody of slide 2");
  });

  it("extracts only the selected slides", async () => {
    const { markdown, metadata } = await extract(await makePptx(), { type: "powerpoint", pages: [2] });
    expect(markdown).toBe("## Slide 2\n\nDetails slide\n\nBody of slide 2");
    expect(metadata).toMatchObject({ slides: 3, extracted_slides: [2] });
  });

  it("refuses a slide beyond the presentation", async () => {
    const err = await processingError(extract(await makePptx(), { type: "powerpoint", pages: [4, 5], name: "deck.pptx" }));
    expect(err.message).toBe("deck.pptx: slides 4, 5 do not exist: the presentation has 3 slides");
  });
});

describe("office archives", () => {
  /** The fixture with its first central-directory entry claiming 2 GB uncompressed (a zip bomb's header). */
  function claimHugeEntry(zip: Buffer): Buffer {
    const patched = Buffer.from(zip);
    const central = patched.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    patched.writeUInt32LE(0x7fffffff, central + 24);
    return patched;
  }

  it.each([
    ["powerpoint", "deck.pptx", makePptx],
    ["word", "memo.docx", makeDocx],
    ["excel", "sales.xlsx", makeXlsx],
  ] as const)("refuses a %s archive that declares more than 200 MB", async (type, name, make) => {
    const err = await processingError(extract(claimHugeEntry(await make()), { type, name }));
    expect(err.message).toBe(`${name} is refused: its archive unpacks to more than 200 MB`);
  });
});

describe("csv", () => {
  it("turns rows into a table with the first row as header, without the BOM", async () => {
    const bytes = makeCsv();
    const { markdown, metadata } = await extract(bytes, { type: "csv" });
    expect(markdown).toBe("| name | city | score |\n| --- | --- | --- |\n| Ada | London | 90 |\n| Linus | Helsinki | 85 |");
    expect(metadata).toEqual({ size_bytes: bytes.byteLength, format: "csv", rows: 3, columns: 3, delimiter: "," });
  });

  it("pads ragged rows and escapes pipes and line breaks inside quoted fields", async () => {
    const csv = 'a,b,c\n1,2\n"x|y","line1\nline2",3,extra\n';
    const { markdown, metadata } = await extract(Buffer.from(csv), { type: "csv" });
    expect(markdown).toBe("| a | b | c |  |\n| --- | --- | --- | --- |\n| 1 | 2 |  |  |\n| x\\|y | line1<br>line2 | 3 | extra |");
    expect(metadata).toMatchObject({ rows: 3, columns: 4 });
  });
});

describe("text", () => {
  it("passes UTF-8 text through as-is, without a BOM", async () => {
    const { markdown, metadata } = await extract(Buffer.from("\uFEFF# Notes\n\nCafé ☕ | ok\n"), { type: "text" });
    expect(markdown).toBe("# Notes\n\nCafé ☕ | ok\n");
    expect(metadata).toMatchObject({ format: "text" });
  });

  it("says so when the file is empty", async () => {
    expect((await extract(Buffer.from("  \n"), { type: "text" })).markdown).toBe("_(no text content)_");
  });

  it.each([
    ["a NUL byte", Buffer.from("abc\u0000def")],
    ["invalid UTF-8", Buffer.from([0x61, 0xff, 0xfe, 0x62])],
  ])("refuses content with %s", async (_label, bytes) => {
    const err = await processingError(extract(bytes, { type: "text", name: "notes.txt" }));
    expect(err.message).toMatch(/^notes\.txt is not a text file/);
  });
});

describe("image", () => {
  it("resizes to the maximum edge and sends a PNG data URL of that size", async () => {
    const { markdown, metadata, image } = await extract(await makePng(3000, 1000), { type: "image", name: "chart.png" });
    expect(image).toMatchObject({ name: "chart.png", mediaType: "image/png", width: 1568, height: 523 });
    expect(image?.dataUrl).toMatch(/^data:image\/png;base64,/);
    const sent = Buffer.from(image!.dataUrl.split(",")[1]!, "base64");
    expect(await sharp(sent).metadata()).toMatchObject({ format: "png", width: 1568, height: 523 });
    expect(metadata).toMatchObject({ format: "png", width: 3000, height: 1000, sent_width: 1568, sent_height: 523 });
    expect(markdown).toBe("[Image: chart.png, 3000×1000 PNG, sent to the model as 1568×523]");
  });

  it("never enlarges a small image and keeps JPEG as JPEG", async () => {
    const jpeg = await sharp(await makePng(200, 100))
      .jpeg()
      .toBuffer();
    const { image, metadata } = await extract(jpeg, { type: "image", name: "photo.jpg", maxImageEdge: 1000 });
    expect(image).toMatchObject({ mediaType: "image/jpeg", width: 200, height: 100 });
    expect(image?.dataUrl).toMatch(/^data:image\/jpeg;base64,/);
    expect(metadata).toMatchObject({ format: "jpeg", sent_width: 200, sent_height: 100 });
  });

  it("sends WebP as PNG", async () => {
    const webp = await sharp(await makePng(40, 20))
      .webp()
      .toBuffer();
    const { image } = await extract(webp, { type: "image" });
    expect(image).toMatchObject({ mediaType: "image/png", width: 40, height: 20 });
  });

  it("refuses bytes that are not an image", async () => {
    const err = await processingError(extract(await makePdf(), { type: "image", name: "logo.png" }));
    expect(err.message).toBe("logo.png was declared as image but its content is application/pdf");
  });
});
