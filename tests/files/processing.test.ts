/**
 * lib/files/processing.ts with stored files: the execution model's ProcessedFileInput fields, errors instead
 * of exceptions, and the extraction caches (in process with single-flight, then ProcessedFileCache).
 */
import { beforeEach, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db";
import { storeFileBytes } from "@/lib/files/service";
import { fileInputSchema, fileRef, type FileInputDocument } from "@/lib/files/schemas";
import { extractionCount, processCaseFiles, processFileInput, resetFileProcessingCaches } from "@/lib/files/processing";
import { layoutCaseFiles, shareBudget, truncationMarker, withAttachedFiles } from "@/lib/files/layout";
import * as previewRoute from "@/app/api/v1/files/preview/route";
import { makeApiKey, makeWorkspace } from "../helpers/factories";
import { call } from "../helpers/api";
import { corruptPdf, makePdf, makePng } from "./fixtures";

const input = (doc: FileInputDocument) => fileInputSchema.parse(doc);

async function workspaceWith(name: string, bytes: Buffer) {
  const { ctx } = await makeWorkspace("editor");
  const { file } = await storeFileBytes(ctx.workspaceId, { name, bytes, origin: "upload" });
  return { workspaceId: ctx.workspaceId, path: fileRef(file.id), file };
}

beforeEach(() => resetFileProcessingCaches());

describe("processFileInput with stored files", () => {
  it("returns the execution model's ProcessedFileInput of a stored file", async () => {
    const { workspaceId, path, file } = await workspaceWith("policy.txt", Buffer.from("Returns within 30 days."));
    const { processed, image } = await processFileInput(input({ path, type: "text", description: "Policy" }), { workspaceId });
    expect(image).toBeUndefined();
    expect(processed).toEqual({
      original: input({ path, type: "text", description: "Policy" }),
      markdown_content: "Returns within 30 days.",
      metadata: expect.objectContaining({ name: "policy.txt", size_bytes: 23, format: "text", sha256: file.sha256, cache: "miss" }),
      cached_path: null,
      processing_time_ms: expect.any(Number),
      error: null,
    });
    expect(processed.processing_time_ms).toBeGreaterThanOrEqual(0);
  });

  it("a file that no longer exists, or a corrupt one, becomes `error` with empty markdown (never an exception)", async () => {
    const { workspaceId, path } = await workspaceWith("broken.pdf", corruptPdf());
    const missing = fileRef(randomUUID());
    const out = await processCaseFiles([input({ path: missing, type: "text" }), input({ path, type: "pdf" })], { workspaceId });
    expect(out.failed).toBe(true);
    expect(out.processed[0]).toMatchObject({
      markdown_content: "",
      error: `${missing} no longer exists in this workspace`,
      cached_path: null,
    });
    expect(out.processed[1]).toMatchObject({ markdown_content: "", error: expect.stringContaining("broken.pdf") });
    expect(out.processed[1]!.metadata).toMatchObject({ name: "broken.pdf", format: "pdf" });
    // The same corrupt content is not read again by the next cases.
    const before = extractionCount();
    const again = await Promise.all(Array.from({ length: 5 }, () => processFileInput(input({ path, type: "pdf" }), { workspaceId })));
    expect(again.every((r) => r.processed.error === out.processed[1]!.error)).toBe(true);
    expect(extractionCount() - before).toBe(0);
  });

  it("another workspace's file is missing here", async () => {
    const { path } = await workspaceWith("mine.txt", Buffer.from("mine"));
    const { ctx } = await makeWorkspace("editor");
    const { processed } = await processFileInput(input({ path, type: "text" }), { workspaceId: ctx.workspaceId });
    expect(processed.error).toBe(`${path} no longer exists in this workspace`);
  });

  it("20 concurrent cases sharing one PDF extract it once; later processes reuse ProcessedFileCache; other options extract again", async () => {
    const { workspaceId, path } = await workspaceWith("handbook.pdf", await makePdf(["One", "Two", "Three"]));
    const file = input({ path, type: "pdf" });
    const before = extractionCount();
    const all = await Promise.all(Array.from({ length: 20 }, () => processFileInput(file, { workspaceId })));
    expect(extractionCount() - before).toBe(1);
    expect(all.filter((r) => r.processed.metadata.cache === "miss")).toHaveLength(1);
    expect(new Set(all.map((r) => r.processed.markdown_content)).size).toBe(1);
    expect(await db.processedFileCache.count({ where: { workspaceId } })).toBe(1);

    // A new process (in-process caches empty) reads the database cache instead of extracting.
    resetFileProcessingCaches();
    const again = await processFileInput(file, { workspaceId });
    expect(extractionCount()).toBe(0);
    expect(again.processed).toMatchObject({
      error: null,
      markdown_content: all[0]!.processed.markdown_content,
      metadata: { cache: "hit" },
    });

    const page2 = await processFileInput(input({ path, type: "pdf", pages: [2] }), { workspaceId });
    expect(extractionCount()).toBe(1);
    expect(page2.processed.markdown_content).toContain("Two");
    expect(page2.processed.markdown_content).not.toContain("Three");
  });

  it("images: the resized image part comes with the result and is kept in process, not in the database", async () => {
    const { workspaceId, path } = await workspaceWith("wide.png", await makePng(3000, 1000));
    const first = await processFileInput(input({ path, type: "image" }), { workspaceId });
    expect(first.processed.error).toBeNull();
    expect(first.image).toMatchObject({ name: "wide.png", mediaType: "image/png", width: 1568 });
    expect(first.image!.dataUrl).toMatch(/^data:image\/png;base64,/);
    const second = await processFileInput(input({ path, type: "image" }), { workspaceId });
    expect(second.image!.dataUrl).toBe(first.image!.dataUrl);
    expect(second.processed.metadata.cache).toBe("hit");
    expect(extractionCount()).toBe(1);
    expect(await db.processedFileCache.count({ where: { workspaceId } })).toBe(0);
    expect(JSON.stringify(second.processed)).not.toContain("base64");
  });
});

describe("the message layout", () => {
  it("shares the budget fairly: short files whole, the rest split what is left", () => {
    expect(shareBudget([10, 5000, 5000], 1000)).toEqual([10, 495, 495]);
    expect(shareBudget([100, 200], 1000)).toEqual([100, 200]);
    expect(shareBudget([], 1000)).toEqual([]);
  });

  it("lays out the files after the message exactly as documented", async () => {
    const { workspaceId, path } = await workspaceWith("notes.txt", Buffer.from("line one\nline two"));
    const { file } = await storeFileBytes(workspaceId, {
      name: "inv.pdf",
      bytes: await makePdf(["Total 10", "Terms", "Signature"]),
      origin: "upload",
    });
    const ok = await processCaseFiles(
      [input({ path, type: "text", description: "Meeting\nnotes" }), input({ path: fileRef(file.id), type: "pdf", pages: [1, 3] })],
      { workspaceId },
    );
    expect(ok.failed).toBe(false);
    const prompt = layoutCaseFiles(ok.processed, ok.images, { maxChars: 100_000 });
    const pdfText = ok.processed[1]!.markdown_content;
    expect(withAttachedFiles("Summarise", prompt)).toBe(
      `Summarise\n\n---\nAttached file 1 of 2: notes.txt (text)\nDescription: Meeting notes\n\nline one\nline two\n\n---\nAttached file 2 of 2: inv.pdf (pdf, pages 1, 3)\n\n${pdfText}\n---`,
    );
    const single = layoutCaseFiles([ok.processed[0]!], [null], { maxChars: 100_000 });
    expect(withAttachedFiles("Hi", single)).toBe(
      "Hi\n\n---\nAttached file 1 of 1: notes.txt (text)\nDescription: Meeting notes\n\nline one\nline two\n---",
    );
    expect(prompt.attachments).toEqual([
      { name: "notes.txt", type: "text" },
      { name: "inv.pdf", type: "pdf" },
    ]);
    expect(prompt.httpFiles[0]).toEqual({ name: "notes.txt", type: "text", markdown: "line one\nline two" });
    expect(truncationMarker(12345, 100_000)).toBe("[… 12,345 more characters cut: Assay's per-case file budget is 100,000 characters]");
  });
});

describe("POST /api/v1/files/preview", () => {
  it("answers what the agent will see for viewers, with an image's size (and its data URL when small); 400 for a bad file, 413 for a huge body", async () => {
    const { workspaceId, path } = await workspaceWith("faq.txt", Buffer.from("Q: hours? A: 9-5"));
    const png = await storeFileBytes(workspaceId, { name: "dot.png", bytes: await makePng(20, 10), origin: "upload" });
    const token = await makeApiKey(workspaceId, "viewer");
    const preview = (body: unknown) => call(previewRoute.POST, { method: "POST", url: "/api/v1/files/preview", token, body });

    const text = await preview({ file: { path, type: "text" } });
    expect(text.status).toBe(200);
    expect(text.json).toMatchObject({ original: { path, type: "text" }, markdown_content: "Q: hours? A: 9-5", error: null, image: null });

    const image = await preview({ file: { path: fileRef(png.file.id), type: "image" } });
    expect(image.json.image).toMatchObject({
      media_type: "image/png",
      width: 20,
      height: 10,
      data_url: expect.stringMatching(/^data:image\/png;base64,/),
    });

    const missing = await preview({ file: { path: fileRef(randomUUID()), type: "text" } });
    expect(missing.status).toBe(200);
    expect(missing.json.error).toMatch(/no longer exists in this workspace/);

    const bad = await preview({ file: { type: "pdf" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues[0].path).toBe("file.path");

    const huge = await preview({ file: { path, type: "text", description: "x".repeat(20_000) } });
    expect(huge.status).toBe(413);
  });
});
