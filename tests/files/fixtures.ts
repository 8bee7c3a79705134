/**
 * Fixture documents for the file-input tests, generated on the fly with the libraries that write
 * each format (no binary blobs in the repository). Every generator returns a Buffer.
 */
import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from "docx";
import ExcelJS from "exceljs";
import { PDFDocument, StandardFonts } from "pdf-lib";
import PptxGenJS from "pptxgenjs";
import sharp from "sharp";

/** A PDF with one page per entry of `pages`, each page's text drawn in Helvetica. */
export async function makePdf(pages: string[] = ["Alpha page one", "Bravo page two", "Charlie page three"]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([595, 842]);
    page.drawText(text, { x: 50, y: 780, size: 14, font });
  }
  return Buffer.from(await pdf.save());
}

/** Bytes that start like a PDF but are not one (a truncated or corrupted upload). */
export function corruptPdf(): Buffer {
  return Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.from("this is not a pdf body \x00\x01\x02 garbage ".repeat(20), "binary")]);
}

/** The table `makeDocx` writes, so tests can assert on its cells. */
export const DOCX_TABLE = [
  ["Invoice", "Amount"],
  ["INV-001", "120.50"],
  ["INV-002", "80.00"],
];

/** A docx with a heading, two paragraphs and a 3×2 table (DOCX_TABLE). */
export async function makeDocx(): Promise<Buffer> {
  const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: "Quarterly Invoices", heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ children: [new TextRun("Invoices for the first quarter are listed below.")] }),
          new Paragraph({ children: [new TextRun({ text: "Payment is due in 30 days.", bold: true })], alignment: AlignmentType.LEFT }),
          new Table({ rows: DOCX_TABLE.map((row) => new TableRow({ children: row.map(cell) })) }),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

/**
 * An xlsx with two sheets. "Q1": header Region | Revenue | Date | Total with two data rows, where
 * Total is a formula (=B2*2, cached result 200) and Date a real date; "Q2": Region | Revenue.
 */
export async function makeXlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const q1 = wb.addWorksheet("Q1");
  q1.addRow(["Region", "Revenue", "Date", "Total"]);
  q1.addRow(["North", 100, new Date(Date.UTC(2024, 0, 15)), { formula: "B2*2", result: 200 }]);
  q1.addRow(["South", 250, new Date(Date.UTC(2024, 1, 20)), { formula: "B3*2", result: 500 }]);
  const q2 = wb.addWorksheet("Q2");
  q2.addRow(["Region", "Revenue"]);
  q2.addRow(["East", 300]);
  q2.addRow(["West", 400]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A pptx with one slide per entry of `slides`, each slide a title and a body line. */
export async function makePptx(slides: string[] = ["Intro slide", "Details slide", "Summary slide"]): Promise<Buffer> {
  const pptx = new PptxGenJS();
  slides.forEach((title, i) => {
    const slide = pptx.addSlide();
    slide.addText(title, { x: 0.5, y: 0.5, w: 8, h: 1 });
    slide.addText(`Body of slide ${i + 1}`, { x: 0.5, y: 2, w: 8, h: 1 });
  });
  return (await pptx.write({ outputType: "nodebuffer" })) as Buffer;
}

/** A small CSV with a header row (with a UTF-8 BOM, as Excel writes it). */
export function makeCsv(): Buffer {
  return Buffer.from("\uFEFFname,city,score\nAda,London,90\nLinus,Helsinki,85\n", "utf8");
}

/** A solid-colour PNG of the given size. */
export async function makePng(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .png()
    .toBuffer();
}
