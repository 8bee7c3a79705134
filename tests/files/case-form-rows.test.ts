import { describe, expect, it } from "vitest";
import { filesToRows, parsePages, rowsToFiles, rowToFileInput, uploadedFileRow, urlFileRow } from "@/components/test-cases/case-file-rows";
import { caseFormSchema, emptyFormValues } from "@/components/test-cases/form-values";

const ID = "0b6f1c3e-8a1d-4c55-9e2f-3f8a7d1e2b4c";

describe("the case form's Files rows", () => {
  it("reads pages typed as comma-separated positive integers", () => {
    expect(parsePages("")).toEqual({ value: null });
    expect(parsePages(" 3, 1 ,2,")).toEqual({ value: [3, 1, 2] });
    expect(parsePages("0").error).toMatch(/positive whole numbers/);
    expect(parsePages("1, two").error).toMatch(/positive whole numbers/);
    expect(parsePages("1.5").error).toMatch(/positive whole numbers/);
  });

  it("turns an upload and a URL into FileInput documents and back (round trip)", () => {
    const upload = { ...uploadedFileRow({ id: ID, name: "invoice.pdf", size_bytes: 1200, type: "pdf" }), pages: "2, 1" };
    const url = {
      ...urlFileRow(),
      url: " https://example.com/q1.xlsx ",
      type: "excel" as const,
      sheet: "Q1",
      range: "a1:b2",
      cache: false,
    };
    const { files, issues } = rowsToFiles([upload, url]);
    expect(issues).toEqual([]);
    expect(files).toEqual([
      { path: `file:${ID}`, type: "pdf", description: null, pages: [2, 1], sheet: null, range: null },
      { url: "https://example.com/q1.xlsx", type: "excel", description: null, pages: null, sheet: "Q1", range: "a1:b2", cache: false },
    ]);
    const rows = filesToRows([
      { path: `file:${ID}`, type: "pdf", pages: [1, 2] },
      { url: "https://example.com/q1.xlsx", type: "excel", sheet: "Q1", range: "A1:B2", cache: false },
    ]);
    expect(rows[0]).toMatchObject({ source: "upload", path: `file:${ID}`, name: "", pages: "1, 2", type: "pdf" });
    expect(rows[1]).toMatchObject({ source: "url", url: "https://example.com/q1.xlsx", sheet: "Q1", range: "A1:B2", cache: false });
    expect(rowsToFiles([]).files).toBeNull();
  });

  it("reports bad pages at the row's field and validates the rest with the case schema", () => {
    const values = { ...emptyFormValues(), name: "Reads files", initial_message: "Hi" };
    const bad = caseFormSchema.safeParse({ ...values, files: [{ ...urlFileRow(), url: "ftp://x", type: "pdf", pages: "1, x" }] });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join("."));
    expect(paths).toContain("files.0.pages");
    const ok = caseFormSchema.parse({
      ...values,
      files: [{ ...urlFileRow(), url: "https://example.com/a.pdf", type: "pdf", pages: "3, 1" }],
    });
    expect(ok.files).toEqual([
      {
        path: null,
        url: "https://example.com/a.pdf",
        type: "pdf",
        description: null,
        pages: [1, 3],
        sheet: null,
        range: null,
        cache: true,
      },
    ]);
  });

  it("previews only a row that is valid on its own", () => {
    expect(rowToFileInput({ ...urlFileRow(), type: "pdf" })).toEqual({ error: expect.stringMatching(/url|path/) });
    expect(rowToFileInput({ ...uploadedFileRow({ id: ID, name: "a.pdf", size_bytes: 1, type: "pdf" }), pages: "0" })).toEqual({
      error: expect.stringMatching(/positive whole numbers/),
    });
    const ok = rowToFileInput(uploadedFileRow({ id: ID, name: "a.pdf", size_bytes: 1, type: "pdf" }));
    expect(ok).toEqual({ file: expect.objectContaining({ path: `file:${ID}`, type: "pdf", cache: null }) });
  });
});
