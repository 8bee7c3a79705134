import { describe, expect, it } from "vitest";
import { sniffFile, typeMatches } from "@/lib/files/sniff";
import { makeCsv, makeDocx, makePdf, makePng, makePptx, makeXlsx } from "./fixtures";

describe("sniffFile", () => {
  it.each([
    ["report.pdf", makePdf, "application/pdf", "pdf"],
    ["memo.docx", makeDocx, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "word"],
    ["sales.xlsx", makeXlsx, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "excel"],
    ["deck.pptx", makePptx, "application/vnd.openxmlformats-officedocument.presentationml.presentation", "powerpoint"],
    ["chart.png", () => makePng(8, 8), "image/png", "image"],
    ["people.csv", async () => makeCsv(), "text/csv", "csv"],
  ])("reads %s from its content", async (name, make, contentType, kind) => {
    expect(await sniffFile(await make(), name)).toEqual({ contentType, kind });
  });

  it("trusts the content, not the name: a PNG named .pdf is an image", async () => {
    expect(await sniffFile(await makePng(8, 8), "invoice.pdf")).toEqual({ contentType: "image/png", kind: "image" });
  });

  it("names text by its extension only when the content is text", async () => {
    expect(await sniffFile(Buffer.from("# Title\n"), "README.md")).toEqual({ contentType: "text/markdown", kind: "text" });
    expect(await sniffFile(Buffer.from("plain"), "notes")).toEqual({ contentType: "text/plain", kind: "text" });
    expect(await sniffFile(Buffer.from([0x00, 0x9f, 0x92, 0x96]), "data.csv")).toEqual({
      contentType: "application/octet-stream",
      kind: null,
    });
  });

  it("reads XML as text", async () => {
    expect(await sniffFile(Buffer.from('<?xml version="1.0"?><a>1</a>'), "feed.xml")).toEqual({
      contentType: "application/xml",
      kind: "text",
    });
  });

  it("recognises legacy Office files without reading them", async () => {
    // The MS-CFB signature every .doc/.xls/.ppt starts with, padded to a plausible header.
    const cfb = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    expect(await sniffFile(cfb, "old.doc")).toEqual({ contentType: "application/msword", kind: null });
    expect(await sniffFile(cfb, "old.xls")).toEqual({ contentType: "application/vnd.ms-excel", kind: null });
  });
});

describe("typeMatches", () => {
  it("accepts the sniffed type, text for csv and csv for text, and nothing for unknown content", () => {
    expect(typeMatches("pdf", "pdf")).toBe(true);
    expect(typeMatches("csv", "text")).toBe(true);
    expect(typeMatches("text", "csv")).toBe(true);
    expect(typeMatches("pdf", "image")).toBe(false);
    expect(typeMatches("text", null)).toBe(false);
  });
});
