/**
 * Word (.docx): mammoth turns the document's structure (headings, lists, tables, emphasis) into
 * clean HTML, and turndown with the GFM plugin turns that into markdown with real tables.
 * mammoth unzips the document itself and would inflate whatever the archive holds: the archive is
 * checked by content first (./zip.ts), so what mammoth inflates is known to stay within the limit.
 */
import mammoth from "mammoth";
import TurndownService from "turndown";
import { gfm } from "@joplin/turndown-plugin-gfm";
import { FileProcessingError } from "./errors";
import type { Extracted } from "./types";
import { NO_TEXT } from "./text";
import { assertZipWithinLimit } from "./zip";

/** The part of mammoth's document model this module touches (its transformDocument input is untyped). */
type DocElement = { type: string; children?: DocElement[]; isHeader?: boolean };

export async function extractWord(bytes: Uint8Array, name: string): Promise<Extracted> {
  await assertZipWithinLimit(bytes, { name, document: "Word document" });
  let html: string;
  let warnings: number;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        transformDocument: promoteFirstRowToHeader,
        // Images are not sent for Word files; an empty src keeps base64 blobs out of the markdown.
        convertImage: mammoth.images.imgElement(async () => ({ src: "" })),
        // Never follow links to files outside the document (mammoth's default is off; be explicit).
        externalFileAccess: false,
      },
    );
    html = result.value;
    warnings = result.messages.length;
  } catch {
    throw new FileProcessingError(`${name} is not a readable Word document (.docx): its content could not be parsed`);
  }
  const markdown = htmlToMarkdown(html).trim();
  return {
    markdown: markdown === "" ? NO_TEXT : markdown,
    metadata: { size_bytes: bytes.byteLength, format: "docx", ...(warnings > 0 ? { warnings } : {}) },
  };
}

/**
 * Word tables rarely mark a header row, and a markdown table must have one: without this the GFM
 * plugin invents an empty header above the real one. Tables that do mark one are left alone.
 */
function promoteFirstRowToHeader(element: DocElement): DocElement {
  const rows = element.type === "table" ? element.children : undefined;
  if (rows?.[0] && !rows.some((row) => row.isHeader)) rows[0].isHeader = true;
  element.children?.forEach(promoteFirstRowToHeader);
  return element;
}

function htmlToMarkdown(html: string): string {
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.use(gfm);
  turndown.addRule("image", {
    filter: "img",
    replacement: (_content, node) => {
      const alt = (node as HTMLElement).getAttribute("alt")?.trim();
      return alt ? `[Image: ${alt}]` : "[Image]";
    },
  });
  return turndown.turndown(html);
}
