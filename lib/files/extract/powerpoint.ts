/**
 * PowerPoint (.pptx) slide text, read from the Office Open XML directly: no well-kept pptx text
 * library for Node exists without bundling OCR or a full office suite, and the format needs little:
 * ppt/presentation.xml lists the slides in presentation order (p:sldIdLst → relationship ids),
 * ppt/_rels/presentation.xml.rels maps those ids to slide parts, and each slide's text is its
 * DrawingML paragraphs (a:p) made of text runs (a:t).
 */
import path from "node:path";
import { strFromU8 } from "fflate";
import { XMLParser } from "fast-xml-parser";
import { FileProcessingError } from "./errors";
import type { Extracted, ExtractOptions } from "./types";
import { selectNumbers } from "./selection";
import { readZipEntries } from "./zip";

const PRESENTATION = "ppt/presentation.xml";
const PRESENTATION_RELS = "ppt/_rels/presentation.xml.rels";

/** fast-xml-parser's preserveOrder shape: one key per element name (or "#text"), attributes under ":@". */
type XmlNode = { [tag: string]: XmlNode[] | string | Record<string, string> | undefined; ":@"?: Record<string, string> };

export async function extractPowerpoint(bytes: Uint8Array, opts: ExtractOptions): Promise<Extracted> {
  const what = { name: opts.name, document: "PowerPoint presentation (.pptx)" };
  const parts = await readZipEntries(
    bytes,
    what,
    (p) => p === PRESENTATION || p === PRESENTATION_RELS || /^ppt\/slides\/[^/]+\.xml$/.test(p),
  );
  const slides = slidePaths(parts, opts.name);
  const selected = selectNumbers(opts.pages, slides.length, { name: opts.name, unit: "slide", document: "presentation" });
  const sections = selected.map((n) => {
    const xml = parts[slides[n - 1] as string];
    if (!xml) throw new FileProcessingError(`${opts.name}: slide ${n} is missing from the presentation file`);
    const text = paragraphs(parse(xml, opts.name)).join("\n\n");
    return `## Slide ${n}\n\n${text || "_(no text on this slide)_"}`;
  });
  return {
    markdown: sections.length > 0 ? sections.join("\n\n") : "_(the presentation has no slides)_",
    metadata: { size_bytes: bytes.byteLength, format: "pptx", slides: slides.length, extracted_slides: selected },
  };
}

/** The slide part paths in presentation order (file names like slide10.xml do not give the order). */
function slidePaths(parts: Record<string, Uint8Array>, name: string): string[] {
  const presentation = parts[PRESENTATION];
  const rels = parts[PRESENTATION_RELS];
  if (!presentation || !rels)
    throw new FileProcessingError(`${name} is not a readable PowerPoint presentation (.pptx): it has no slide list`);
  const targets = new Map<string, string>();
  for (const rel of elements(parse(rels, name), "Relationship")) {
    const attrs = rel[":@"] ?? {};
    if (attrs["@_Id"] && attrs["@_Target"]) targets.set(attrs["@_Id"], attrs["@_Target"]);
  }
  return elements(parse(presentation, name), "p:sldId").flatMap((sld) => {
    const target = targets.get(sld[":@"]?.["@_r:id"] ?? "");
    return target ? [partPath(target)] : [];
  });
}

/** Relationship targets are relative to ppt/ (or absolute from the package root). */
function partPath(target: string): string {
  return target.startsWith("/") ? target.slice(1) : path.posix.normalize(path.posix.join("ppt", target));
}

function parse(xml: Uint8Array, name: string): XmlNode[] {
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    // Keep text exactly as written: "007" stays "007" and spaces between runs survive.
    parseTagValue: false,
    trimValues: false,
  });
  try {
    return parser.parse(strFromU8(xml)) as XmlNode[];
  } catch {
    throw new FileProcessingError(`${name} is not a readable PowerPoint presentation (.pptx): its XML is invalid`);
  }
}

function children(node: XmlNode, tag: string): XmlNode[] {
  const value = node[tag];
  return Array.isArray(value) ? value : [];
}

function tagOf(node: XmlNode): string | undefined {
  return Object.keys(node).find((k) => k !== ":@");
}

/** Every element named `tag`, in document order, at any depth. */
function elements(nodes: XmlNode[], tag: string): XmlNode[] {
  return nodes.flatMap((node) => {
    const name = tagOf(node);
    if (!name || name === "#text") return [];
    return name === tag ? [node] : elements(children(node, name), tag);
  });
}

/** Each non-empty a:p's text: its a:t runs joined, a:br as a line break. */
function paragraphs(slide: XmlNode[]): string[] {
  return elements(slide, "a:p")
    .map((p) => runsText(children(p, "a:p")).trim())
    .filter((text) => text !== "");
}

function runsText(nodes: XmlNode[]): string {
  return nodes
    .map((node) => {
      const name = tagOf(node);
      if (name === "a:br") return "\n";
      if (name === "a:t")
        return children(node, "a:t")
          .map((t) => (typeof t["#text"] === "string" ? t["#text"] : ""))
          .join("");
      return name && name !== "#text" ? runsText(children(node, name)) : "";
    })
    .join("");
}
