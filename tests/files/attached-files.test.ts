import { describe, expect, it } from "vitest";
import { layoutCaseFiles, splitAttachedFiles, withAttachedFiles } from "@/lib/files/layout";
import type { ProcessedFileInput } from "@/lib/files/types";

/** A processed file as processing.ts would produce it (only what the layout reads). */
function processed(name: string, markdown: string, original: Partial<ProcessedFileInput["original"]> = {}): ProcessedFileInput {
  return {
    original: { type: "excel", path: "file:x", cache: true, ...original } as ProcessedFileInput["original"],
    markdown_content: markdown,
    metadata: { name },
    cached_path: null,
    processing_time_ms: 1,
    error: null,
  };
}

const TABLE = "| Region | Q1 |\n| --- | --- |\n| North | 12 |\n\nA note after the table.";

describe("splitAttachedFiles", () => {
  it("reads back the message and each file block of the first user message", () => {
    const files = [processed("q1.xlsx", TABLE, { sheet: "Q1", description: "Quarter one" }), processed("notes.md", "# Notes")];
    const prompt = layoutCaseFiles(files, [null, null], { maxChars: 100_000 });
    const content = withAttachedFiles("Which region sold most?\n\nThanks.", prompt);
    expect(splitAttachedFiles(content, 2)).toEqual({
      message: "Which region sold most?\n\nThanks.",
      files: [
        { title: "q1.xlsx (excel, sheet Q1)", description: "Quarter one", markdown: TABLE },
        { title: "notes.md (excel)", description: null, markdown: "# Notes" },
      ],
    });
  });

  it("keeps what a capped transcript still holds, and answers null without the layout", () => {
    const prompt = layoutCaseFiles([processed("a.csv", "a,b"), processed("b.csv", "c,d")], [null, null], { maxChars: 100_000 });
    const content = withAttachedFiles("Hi", prompt);
    // As lib/runs/truncate.ts stores a message over its cap: cut inside file 2, then a marker.
    const cut = `${content.slice(0, content.indexOf("c,d") + 1)}… [truncated 6 characters]`;
    expect(splitAttachedFiles(cut, 2)).toEqual({
      message: "Hi",
      files: [
        { title: "a.csv (excel)", description: null, markdown: "a,b" },
        { title: "b.csv (excel)", description: null, markdown: "c… [truncated 6 characters]" },
      ],
    });
    expect(splitAttachedFiles("Just a question", 1)).toBeNull();
    expect(splitAttachedFiles(content, 0)).toBeNull();
  });
});
