/**
 * The execution model's FileInput as Assay stores it on a test case: a file of the workspace's file store
 * (`path: "file:<id>"`, uploaded through POST /api/v1/files) or a URL, with the execution model's options.
 * One schema for the case form, the REST API and import/export; the rules that need the store
 * (the file exists, its sniffed content matches `type`) are checked by ./service.ts.
 */
import { z } from "zod";

export const FILE_TYPES = ["image", "pdf", "text", "excel", "word", "powerpoint", "csv"] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** The execution model: at most 10 files per test case. */
export const MAX_CASE_FILES = 10;
/** Largest upload (and largest URL download), bytes. */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
/** `path` values name a stored file as `file:<id>`. */
export const FILE_REF_PREFIX = "file:";
const FILE_REF = /^file:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An A1 cell or range (`B2`, `A1:E100`). */
export const A1_RANGE = /^[A-Z]{1,3}[1-9][0-9]{0,6}(:[A-Z]{1,3}[1-9][0-9]{0,6})?$/i;

export function fileRef(id: string): string {
  return `${FILE_REF_PREFIX}${id.toLowerCase()}`;
}

/** The stored file id of a `file:<id>` path (null for anything else). */
export function fileIdOf(path: string | null | undefined): string | null {
  return path && FILE_REF.test(path) ? path.slice(FILE_REF_PREFIX.length).toLowerCase() : null;
}

const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, `${label} is at most ${max} characters`)
    .nullish()
    .transform((v) => (v == null || v.trim() === "" ? null : v.trim()));

export const fileInputSchema = z
  .object({
    path: z
      .string({ error: "path must be text" })
      .trim()
      .regex(FILE_REF, 'path must be "file:<id>" of a file uploaded to this workspace (POST /api/v1/files)')
      .nullish()
      .transform((v) => (v ? v.toLowerCase() : null)),
    url: z
      .string({ error: "url must be text" })
      .trim()
      .max(2048, "url is at most 2048 characters")
      .refine((v) => /^https?:\/\/[^\s]+$/i.test(v) && URL.canParse(v), "url must be an http(s) URL")
      .nullish()
      .transform((v) => v ?? null),
    type: z.enum(FILE_TYPES, { error: `type must be one of ${FILE_TYPES.join(", ")}` }),
    description: optionalText(1000, "description"),
    pages: z
      .array(
        z
          .number({ error: "pages must be positive integers" })
          .int("pages must be positive integers")
          .positive("pages must be positive integers"),
        { error: "pages must be a list of page numbers" },
      )
      .max(1000, "At most 1000 pages")
      .nullish()
      .transform((v) => (v && v.length > 0 ? [...new Set(v)].sort((a, b) => a - b) : null)),
    sheet: optionalText(100, "sheet"),
    range: z
      .string({ error: "range must be text" })
      .trim()
      .regex(A1_RANGE, "range must be an A1 range such as A1:E100")
      .nullish()
      .transform((v) => (v ? v.toUpperCase() : null)),
    cache: z.boolean({ error: "cache must be true or false" }).nullish(),
  })
  .superRefine((f, ctx) => {
    if (Boolean(f.path) === Boolean(f.url)) {
      ctx.addIssue({ code: "custom", path: ["path"], message: "Give exactly one of path or url" });
    }
  })
  // The execution model: `cache` defaults to true for URLs (it means nothing for stored files).
  .transform((f) => ({ ...f, cache: f.url ? (f.cache ?? true) : null }));

export type FileInput = z.output<typeof fileInputSchema>;
export type FileInputDocument = z.input<typeof fileInputSchema>;

export const caseFilesSchema = z
  .array(fileInputSchema, { error: "files must be a list" })
  .max(MAX_CASE_FILES, `At most ${MAX_CASE_FILES} files per test case`)
  .nullish()
  .transform((v) => (v && v.length > 0 ? v : null));

/** A file input as stored/exported: absent options omitted, so documents stay short. */
export function compactFileInput(f: FileInput): FileInputDocument {
  const out: Record<string, unknown> = {};
  if (f.path) out.path = f.path;
  if (f.url) out.url = f.url;
  out.type = f.type;
  if (f.description) out.description = f.description;
  if (f.pages) out.pages = f.pages;
  if (f.sheet) out.sheet = f.sheet;
  if (f.range) out.range = f.range;
  if (f.url && f.cache === false) out.cache = false;
  return out as FileInputDocument;
}
