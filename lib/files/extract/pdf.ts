/**
 * PDF text per page with unpdf (Mozilla's pdf.js packaged for serverless/Node, no canvas or worker
 * needed). Text only: scanned pages without a text layer come out as a note (no OCR).
 */
import { getDocumentProxy } from "unpdf";
import { FileProcessingError } from "./errors";
import type { Extracted, ExtractOptions } from "./types";
import { selectNumbers } from "./selection";

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

export async function extractPdf(bytes: Uint8Array, opts: ExtractOptions): Promise<Extracted> {
  const doc = await openPdf(bytes, opts.name);
  try {
    const total = doc.numPages;
    const selected = selectNumbers(opts.pages, total, { name: opts.name, unit: "page", document: "PDF" });
    const sections: string[] = [];
    for (const n of selected) sections.push(`## Page ${n}\n\n${await pageText(doc, n, opts.name)}`);
    return {
      markdown: sections.join("\n\n"),
      metadata: { size_bytes: bytes.byteLength, format: "pdf", pages: total, extracted_pages: selected },
    };
  } finally {
    // Destroying the loading task frees the document and pdf.js' in-process worker state.
    await doc.loadingTask.destroy();
  }
}

async function openPdf(bytes: Uint8Array, name: string): Promise<PdfDocument> {
  try {
    // pdf.js takes ownership of (detaches) the buffer it is given: pass a copy so the caller's
    // bytes stay usable. verbosity 0 keeps its recovery warnings out of the server log.
    return await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 });
  } catch (err) {
    throw new FileProcessingError(`${name} is not a readable PDF: ${unreadableReason(err)}`);
  }
}

/** pdf.js names its exceptions; their messages are not meant for users. */
function unreadableReason(err: unknown): string {
  const kind = err instanceof Error ? err.name : "";
  if (kind === "PasswordException") return "it is password-protected";
  if (kind === "InvalidPDFException") return "its structure is invalid (corrupt or truncated file)";
  return "its content could not be parsed";
}

async function pageText(doc: PdfDocument, n: number, name: string): Promise<string> {
  try {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    // The same joining as unpdf's extractText: runs in reading order, a newline where pdf.js saw one.
    const text = content.items
      .map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : "") : ""))
      .join("")
      .trim();
    return text === "" ? "_(no text on this page; scanned pages are not OCRed)_" : text;
  } catch {
    throw new FileProcessingError(`${name} is not a readable PDF: page ${n} could not be read`);
  }
}
