import { fileIdOf, fileInputSchema, fileRef, type FileInput, type FileInputDocument, type FileType } from "@/lib/files/schemas";

/**
 * The case form's "Files" section edits one row per FileInput (the execution model): an uploaded file of the
 * workspace store (`path: "file:<id>"`) or a URL, with its options as typed. On submit the rows
 * become the case's `files` list, validated by the same `testCaseInput` as the server; pages typed
 * as "1, 3" are checked here so a bad entry is reported at its row's field (`files.N.pages`).
 */
export type FileRow = {
  source: "upload" | "url";
  /** `file:<id>` for an uploaded file ("" for a URL). */
  path: string;
  url: string;
  /** The uploaded file's name and size, for display only (not saved with the case). */
  name: string;
  size_bytes: number | null;
  type: FileType | "";
  description: string;
  /** Comma-separated page (or slide) numbers. */
  pages: string;
  sheet: string;
  range: string;
  cache: boolean;
};

type Issue = { path: (string | number)[]; message: string };

export const PAGES_MESSAGE = "Pages must be positive whole numbers separated by commas, like 1, 3, 5";

export function uploadedFileRow(file: { id: string; name: string; size_bytes: number; type: FileType | null }): FileRow {
  return {
    source: "upload",
    path: file.id ? fileRef(file.id) : "",
    url: "",
    name: file.name,
    size_bytes: file.size_bytes,
    type: file.type ?? "",
    description: "",
    pages: "",
    sheet: "",
    range: "",
    cache: true,
  };
}

export function urlFileRow(): FileRow {
  return { ...uploadedFileRow({ id: "", name: "", size_bytes: 0, type: null }), source: "url", path: "", size_bytes: null };
}

/** "1, 3,5" → [1, 3, 5]; "" → null; anything else → an error message. */
export function parsePages(text: string): { value: number[] | null; error?: string } {
  const parts = text
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  if (parts.length === 0) return { value: null };
  if (!parts.every((p) => /^[1-9][0-9]{0,5}$/.test(p))) return { value: null, error: PAGES_MESSAGE };
  return { value: parts.map(Number) };
}

/** One row → the FileInput document it stands for (before schema validation). */
export function rowToFileDocument(row: FileRow): { file: Record<string, unknown>; pagesError?: string } {
  const pages = parsePages(row.pages);
  // Empty inputs are absent options (the schema's formats, e.g. an A1 range, do not accept "").
  const text = (v: string) => (v.trim() === "" ? null : v.trim());
  const file: Record<string, unknown> = {
    ...(row.source === "upload" ? { path: text(row.path) } : { url: text(row.url) }),
    type: row.type,
    description: text(row.description),
    pages: pages.value,
    sheet: text(row.sheet),
    range: text(row.range),
    ...(row.source === "url" ? { cache: row.cache } : {}),
  };
  return { file, pagesError: pages.error };
}

/** Rows → the case's `files` input (null: no files), plus the conversion's own issues. */
export function rowsToFiles(rows: readonly FileRow[]): { files: Record<string, unknown>[] | null; issues: Issue[] } {
  const issues: Issue[] = [];
  const files = rows.map((row, i) => {
    const { file, pagesError } = rowToFileDocument(row);
    if (pagesError) issues.push({ path: ["files", i, "pages"], message: pagesError });
    return file;
  });
  return { files: files.length > 0 ? files : null, issues };
}

/** One row validated as the run will use it (for the preview), or the first problem. */
export function rowToFileInput(row: FileRow): { file: FileInput } | { error: string } {
  const { file, pagesError } = rowToFileDocument(row);
  if (pagesError) return { error: pagesError };
  const parsed = fileInputSchema.safeParse(file);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "This file is not valid" };
  return { file: parsed.data };
}

/** A stored case's files → rows (names of uploaded files are filled in from the file list by the form). */
export function filesToRows(files: readonly FileInputDocument[] | null): FileRow[] {
  return (files ?? []).map((f) => {
    const id = fileIdOf(f.path ?? null);
    return {
      source: f.url ? "url" : "upload",
      path: f.path ?? "",
      url: f.url ?? "",
      name: id ? "" : (f.path ?? ""),
      size_bytes: null,
      type: f.type,
      description: f.description ?? "",
      pages: (f.pages ?? []).join(", "),
      sheet: f.sheet ?? "",
      range: f.range ?? "",
      cache: f.cache ?? true,
    };
  });
}
