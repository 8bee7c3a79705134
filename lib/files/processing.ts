/**
 * File processing (the execution model): a case's `files` become ProcessedFileInput (markdown, metadata, the
 * resized image for images) before the conversation. Stored files (`file:<id>`) are read from
 * the file store; URLs are downloaded through the network guard (size, time and content-type
 * limits) and, with `cache`, revalidated with ETag/Last-Modified (UrlFileCache). Extraction
 * results are cached by content hash + options + EXTRACTOR_VERSION: in process (an LRU with a
 * bytes budget, plus single-flight so concurrent cases sharing a file extract it once) and in
 * ProcessedFileCache (markdown and metadata only; images are never stored as data URLs).
 * Extraction itself runs in the file worker pool (./file-pool.ts), with time and memory limits.
 * Key rule: a bad file never throws — it becomes the ProcessedFileInput's `error`.
 * ./README.md documents the caches, limits and the message layout.
 */
import "server-only";
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { EXTRACTOR_VERSION, FileProcessingError, type Extracted } from "@/lib/files/extract";
import { FileLimitError, filePool } from "@/lib/files/file-pool";
import { cleanFileName } from "@/lib/files/names";
import { fileIdOf, fileRef, MAX_FILE_BYTES, type FileInput, type FileType } from "@/lib/files/schemas";
import { loadStoredFile, loadStoredFileBytes, sha256Hex, storeFileBytes } from "@/lib/files/service";
import { sniffFile, typeMatches } from "@/lib/files/sniff";
import type { ImagePart, ProcessedFileInput } from "@/lib/files/types";
import {
  createGuardedFetch,
  findCause,
  formatBytes,
  isBlockedAddressError,
  isResponseTooLargeError,
  type FetchLike,
} from "@/lib/net/safe-fetch";
import { networkPolicy } from "@/lib/net/service";
import { displayUrl } from "@/lib/url-secrets";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { toFilePreview, type FilePreviewDto } from "@/lib/files/preview";

/** A URL download gets this long (headers and body) before it fails. */
export const URL_FETCH_TIMEOUT_MS = 30_000;
/** A URL validated (downloaded or answered 304) this recently is reused without asking again (cases of one run). */
export const URL_FRESH_MS = 10_000;
/** Budget of the in-process result cache (markdown and resized images), in bytes (characters). */
export const RESULT_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * A file that ran out of time or memory is not tried again for this long (every case of a large
 * suite would otherwise hold a worker for the whole time limit); later it is, as the limit may
 * have been hit under load.
 */
export const LIMIT_ERROR_TTL_MS = 10 * 60_000;

export type ProcessOptions = {
  workspaceId: string;
  /** Checked before the file is processed; a download already running is bounded by its time limit only (other cases may share it). */
  signal?: AbortSignal;
  /** URL downloads (tests pass a guarded fetch with a loopback-only connector); default: the instance's guard with the 25 MB cap. */
  fetch?: FetchLike;
  /** How long a validated URL is reused without a request (default URL_FRESH_MS; 0: always revalidate). */
  urlFreshMs?: number;
  timeoutMs?: number;
};

export type ProcessedFile = { processed: ProcessedFileInput; image?: ImagePart };

export type ProcessedCaseFiles = {
  processed: ProcessedFileInput[];
  /** Aligned with `processed`: the resized image of each image file (null for other files and failures). */
  images: (ImagePart | null)[];
  /** Some file has an `error`. */
  failed: boolean;
};

/** Processes a case's files (in order, concurrently); never throws for a bad file. */
export async function processCaseFiles(files: FileInput[], opts: ProcessOptions): Promise<ProcessedCaseFiles> {
  const out = await Promise.all(files.map((f) => processFileInput(f, opts)));
  return {
    processed: out.map((o) => o.processed),
    images: out.map((o) => o.image ?? null),
    failed: out.some((o) => o.processed.error !== null),
  };
}

/** One file → ProcessedFileInput (the execution model) (+ the resized image for image files). */
export async function processFileInput(file: FileInput, opts: ProcessOptions): Promise<ProcessedFile> {
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const fail = (error: string, metadata: Record<string, unknown> = {}, cachedPath: string | null = null): ProcessedFile => ({
    processed: { original: file, markdown_content: "", metadata, cached_path: cachedPath, processing_time_ms: elapsed(), error },
  });
  if (opts.signal?.aborted) return fail("Cancelled before the file was processed");
  let source: Source;
  try {
    source = file.url ? await urlSource(file, opts) : await storedSource(file, opts.workspaceId);
  } catch (err) {
    return fail(sourceError(err, file));
  }
  const base = { name: source.name, size_bytes: source.sizeBytes, sha256: source.sha256, ...source.extra };
  try {
    const { entry, cache } = await extracted(source, file, opts.workspaceId);
    const metadata = { ...entry.metadata, ...base, format: entry.metadata.format ?? file.type, cache };
    return {
      processed: {
        original: file,
        markdown_content: entry.markdown,
        metadata,
        cached_path: source.cachedPath,
        processing_time_ms: elapsed(),
        error: null,
      },
      ...(entry.image ? { image: entry.image } : {}),
    };
  } catch (err) {
    return fail(extractionError(err, source.name, file.type), { ...base, format: file.type }, source.cachedPath);
  }
}

/* ── Sources: where the bytes come from ─────────────────────────────────────────────────────── */

type Source = {
  name: string;
  sizeBytes: number;
  sha256: string;
  /** `file:<id>` of a URL's stored download (null for uploaded files and uncached URLs). */
  cachedPath: string | null;
  /** Metadata about the source (URL cache state). */
  extra: Record<string, unknown>;
  load: () => Promise<Buffer>;
};

/** A message for the user (never a raw exception from a library). */
class SourceError extends Error {}

async function storedSource(file: FileInput, workspaceId: string): Promise<Source> {
  const id = fileIdOf(file.path);
  if (!id) throw new SourceError(`${file.path ?? "(no path)"} is not a file of this workspace`);
  try {
    const row = await loadStoredFile(workspaceId, id);
    return {
      name: cleanFileName(row.name, "file"),
      sizeBytes: row.sizeBytes,
      sha256: row.sha256,
      cachedPath: null,
      extra: {},
      load: async () => (await loadStoredFileBytes(workspaceId, id)).bytes,
    };
  } catch (err) {
    if (err instanceof NotFoundError) throw new SourceError(`${fileRef(id)} no longer exists in this workspace`);
    throw err;
  }
}

let sharedFetch: FetchLike | undefined;
/** The instance's network guard with the file size cap instead of the model-response cap. */
function fileFetch(): FetchLike {
  return (sharedFetch ??= createGuardedFetch({ ...networkPolicy(), maxResponseBytes: MAX_FILE_BYTES }));
}

/** Validated URL sources by workspace + URL: single-flight while in progress, reused for URL_FRESH_MS after. */
const urlSources = new LRUCache<string, { at: number | null; source: Promise<Source> }>({ max: 1000 });

function urlSource(file: FileInput, opts: ProcessOptions): Promise<Source> {
  const key = `${opts.workspaceId}\n${file.cache === false ? "nocache" : "cache"}\n${file.url}`;
  const freshMs = opts.urlFreshMs ?? URL_FRESH_MS;
  const known = urlSources.peek(key);
  if (known && (known.at === null || (freshMs > 0 && Date.now() - known.at < freshMs))) return known.source;
  const entry: { at: number | null; source: Promise<Source> } = { at: null, source: fetchUrlSource(file, opts) };
  urlSources.set(key, entry);
  entry.source.then(
    () => {
      entry.at = Date.now();
      if (freshMs <= 0 && urlSources.peek(key) === entry) urlSources.delete(key);
    },
    () => {
      if (urlSources.peek(key) === entry) urlSources.delete(key);
    },
  );
  return entry.source;
}

async function fetchUrlSource(file: FileInput, opts: ProcessOptions): Promise<Source> {
  const url = file.url!;
  const useCache = file.cache !== false;
  const cached = useCache
    ? await db.urlFileCache.findUnique({
        where: { workspaceId_url: { workspaceId: opts.workspaceId, url } },
        select: { fileId: true, etag: true, lastModified: true },
      })
    : null;
  const headers: Record<string, string> = { accept: acceptFor(file.type), "user-agent": "Assay file fetcher" };
  if (cached?.etag) headers["if-none-match"] = cached.etag;
  if (cached?.lastModified) headers["if-modified-since"] = cached.lastModified;
  const timeoutMs = opts.timeoutMs ?? URL_FETCH_TIMEOUT_MS;
  // Only the time limit stops a download: it is shared by every case waiting for this URL, and
  // one cancelled run must not fail the others' cases (a cancelled case is ended by its runner).
  const signal = AbortSignal.timeout(timeoutMs);
  const shown = displayUrl(url);
  let res: Response;
  let bytes: Buffer | null = null;
  try {
    res = await (opts.fetch ?? fileFetch())(url, { method: "GET", headers, signal, redirect: "follow" });
    if (res.status === 200) {
      const declared = Number(res.headers.get("content-length") ?? "0");
      if (declared > MAX_FILE_BYTES) {
        await res.body?.cancel().catch(() => undefined);
        throw new SourceError(`${shown} is larger than ${formatBytes(MAX_FILE_BYTES)} (${formatBytes(declared)})`);
      }
      checkContentType(res.headers.get("content-type"), file.type, shown);
      bytes = Buffer.from(await res.arrayBuffer());
    } else {
      await res.body?.cancel().catch(() => undefined);
    }
  } catch (err) {
    if (err instanceof SourceError) throw err;
    if (signal.aborted)
      throw new SourceError(
        `${shown} did not answer within ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`}`,
      );
    const blocked = findCause(err, isBlockedAddressError);
    if (blocked) throw new SourceError(`${shown} may not be fetched: ${blocked.message}`);
    if (findCause(err, isResponseTooLargeError)) throw new SourceError(`${shown} is larger than ${formatBytes(MAX_FILE_BYTES)}`);
    const cause = (err as { cause?: { code?: unknown } })?.cause?.code ?? (err as { code?: unknown })?.code;
    throw new SourceError(`${shown} could not be downloaded${typeof cause === "string" ? ` (${cause})` : ""}`);
  }

  if (res.status === 304 && cached) {
    try {
      const row = await loadStoredFile(opts.workspaceId, cached.fileId);
      await db.urlFileCache.updateMany({ where: { workspaceId: opts.workspaceId, url }, data: { fetchedAt: new Date() } });
      return storedUrlSource(opts.workspaceId, row, { url_cache: "not_modified" });
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      throw new SourceError(`The stored copy of ${shown} is gone; run again to download it`);
    }
  }
  if (res.status !== 200 || !bytes) throw new SourceError(`${shown} answered HTTP ${res.status}`);
  if (bytes.byteLength > MAX_FILE_BYTES) throw new SourceError(`${shown} is larger than ${formatBytes(MAX_FILE_BYTES)}`);
  if (bytes.byteLength === 0) throw new SourceError(`${shown} returned an empty body`);
  const name = nameFromUrl(res.url || url, file.type);
  // The declared type must match the content, as for uploads (a login page is not a PDF).
  const sniffed = await sniffFile(bytes, name);
  if (!typeMatches(file.type, sniffed.kind)) {
    throw new SourceError(`${shown} returned ${sniffed.contentType} content, not a ${file.type} file`);
  }
  if (!useCache) {
    const data = bytes;
    return {
      name,
      sizeBytes: data.byteLength,
      sha256: sha256Hex(data),
      cachedPath: null,
      extra: { url_cache: "disabled" },
      load: async () => data,
    };
  }
  const { file: stored } = await storeFileBytes(opts.workspaceId, { name, bytes, origin: "url" });
  const validators = { etag: res.headers.get("etag"), lastModified: res.headers.get("last-modified") };
  await db.urlFileCache.upsert({
    where: { workspaceId_url: { workspaceId: opts.workspaceId, url } },
    create: { workspaceId: opts.workspaceId, url, fileId: stored.id, ...validators },
    update: { fileId: stored.id, ...validators, fetchedAt: new Date() },
  });
  const data = bytes;
  return { ...storedUrlSource(opts.workspaceId, stored, { url_cache: "downloaded" }), load: async () => data };
}

function storedUrlSource(
  workspaceId: string,
  row: { id: string; name: string; sizeBytes: number; sha256: string },
  extra: Record<string, unknown>,
): Source {
  return {
    name: cleanFileName(row.name, "file"),
    sizeBytes: row.sizeBytes,
    sha256: row.sha256,
    cachedPath: fileRef(row.id),
    extra,
    load: async () => (await loadStoredFileBytes(workspaceId, row.id)).bytes,
  };
}

/** Content types each file type may arrive as (application/octet-stream and a missing type are always accepted: the content is sniffed). */
const ACCEPTED: Record<FileType, (ct: string) => boolean> = {
  text: (ct) => ct.startsWith("text/") || /^application\/(json|xml|x-ndjson|yaml|x-yaml)$/.test(ct) || /\+(json|xml)$/.test(ct),
  csv: (ct) => ["text/csv", "text/plain", "application/csv", "text/comma-separated-values", "application/vnd.ms-excel"].includes(ct),
  pdf: (ct) => ct === "application/pdf" || ct === "application/x-pdf",
  image: (ct) => ct.startsWith("image/"),
  word: (ct) => ct === "application/vnd.openxmlformats-officedocument.wordprocessingml.document" || ct === "application/zip",
  excel: (ct) => ct === "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" || ct === "application/zip",
  powerpoint: (ct) => ct === "application/vnd.openxmlformats-officedocument.presentationml.presentation" || ct === "application/zip",
};

function checkContentType(header: string | null, type: FileType, shown: string) {
  const ct = (header ?? "").split(";")[0]!.trim().toLowerCase();
  if (ct === "" || ct === "application/octet-stream" || ct === "binary/octet-stream") return;
  if (!ACCEPTED[type](ct)) throw new SourceError(`${shown} is served as ${ct}, which is not a ${type} file`);
}

function acceptFor(type: FileType): string {
  return type === "image" ? "image/*, */*;q=0.5" : type === "pdf" ? "application/pdf, */*;q=0.5" : "*/*";
}

/** The URL's last path segment, decoded and cleaned like an upload's name (a %00 or %0A is not part of a name). */
function nameFromUrl(url: string, type: FileType): string {
  try {
    const u = new URL(url);
    const fallback = `${u.hostname} (${type})`;
    return cleanFileName(decodeURIComponent(u.pathname.split("/").filter(Boolean).pop() ?? ""), fallback);
  } catch {
    return `download (${type})`;
  }
}

function sourceError(err: unknown, file: FileInput): string {
  if (err instanceof SourceError) return err.message;
  logger.error({ err, path: file.path, url: file.url ? displayUrl(file.url) : null }, "could not read a case file");
  return `${file.path ?? displayUrl(file.url ?? "")} could not be read`;
}

function extractionError(err: unknown, name: string, type: FileType): string {
  // The extractors' messages name the file and what is wrong (page, sheet, format) already.
  if (err instanceof FileProcessingError || err instanceof SourceError) return err.message;
  logger.warn({ err, name, type }, "file extraction failed");
  return `${name} could not be read as a ${type} file (it may be corrupt or protected)`;
}

/* ── Extraction with its caches ─────────────────────────────────────────────────────────────── */

type Entry = {
  markdown: string;
  metadata: Record<string, unknown>;
  image?: ImagePart;
  /** A FileProcessingError of this content and these options: it depends on them only, so it is kept like a result. */
  error?: string;
  /** A limit error is forgotten at this time (Date.now()); other entries stay until evicted. */
  expiresAt?: number;
  size: number;
};

/**
 * Least recently used out first, by total `size` (characters of markdown and data URL). An entry
 * larger than a quarter of the budget is used once, not kept (it would evict everything else).
 */
const results = new LRUCache<string, Entry>({
  maxSize: RESULT_CACHE_BYTES,
  maxEntrySize: RESULT_CACHE_BYTES / 4,
  sizeCalculation: (entry) => entry.size,
});
const inflight = new Map<string, Promise<Entry>>();
let extractions = 0;

/** Extractions actually run in this process (tests prove a shared file is extracted once). */
export function extractionCount(): number {
  return extractions;
}

/** Tests: forget every in-process cache (the database caches stay). */
export function resetFileProcessingCaches() {
  results.clear();
  inflight.clear();
  urlSources.clear();
  extractions = 0;
}

function cacheKey(sha256: string, file: FileInput): string {
  const options = {
    v: EXTRACTOR_VERSION,
    sha256,
    type: file.type,
    pages: file.pages ?? null,
    sheet: file.sheet ?? null,
    range: file.range ?? null,
    edge: file.type === "image" ? env.ASSAY_IMAGE_MAX_EDGE : null,
    // A sheet refused under one cap may be read under a larger one.
    cells: file.type === "excel" || file.type === "csv" ? env.ASSAY_FILE_MAX_CELLS : null,
  };
  return createHash("sha256").update(JSON.stringify(options)).digest("hex");
}

async function extracted(source: Source, file: FileInput, workspaceId: string): Promise<{ entry: Entry; cache: "hit" | "miss" }> {
  const key = `${workspaceId}:${cacheKey(source.sha256, file)}`;
  let hit = results.get(key);
  if (hit?.expiresAt !== undefined && hit.expiresAt <= Date.now()) {
    results.delete(key);
    hit = undefined;
  }
  if (hit) return { entry: known(hit), cache: "hit" };
  let pending = inflight.get(key);
  if (pending) return { entry: known(await pending), cache: "hit" };
  let missed = false;
  pending = (async () => {
    const dbKey = key.slice(workspaceId.length + 1);
    // Images need their resized bytes, which are only kept in process: no database row for them.
    if (file.type !== "image") {
      const row = await db.processedFileCache.findUnique({
        where: { workspaceId_cacheKey: { workspaceId, cacheKey: dbKey } },
        select: { markdown: true, metadata: true },
      });
      if (row) return remember(key, { markdown: row.markdown, metadata: row.metadata as Record<string, unknown>, size: 0 });
    }
    missed = true;
    const bytes = await source.load();
    const extractStarted = performance.now();
    extractions++;
    let out: Extracted;
    try {
      const options = {
        type: file.type,
        name: source.name,
        pages: file.pages,
        sheet: file.sheet,
        range: file.range,
        maxImageEdge: env.ASSAY_IMAGE_MAX_EDGE,
        maxCells: env.ASSAY_FILE_MAX_CELLS,
      };
      out = await filePool().run({ kind: "extract", bytes, options }, source.name);
    } catch (err) {
      // A corrupt file shared by a thousand cases is read once, not once per case.
      if (err instanceof FileProcessingError) {
        const expiresAt = err instanceof FileLimitError ? Date.now() + LIMIT_ERROR_TTL_MS : undefined;
        return remember(key, { markdown: "", metadata: {}, error: err.message, ...(expiresAt ? { expiresAt } : {}), size: 0 });
      }
      throw err;
    }
    let markdown = out.markdown;
    if (file.type === "image" && !markdown.trim()) {
      const w = out.image?.width ?? out.metadata.width;
      const h = out.image?.height ?? out.metadata.height;
      markdown = `(image ${source.name}${w && h ? `, ${String(w)}×${String(h)} px` : ""})`;
    }
    if (!markdown.trim()) throw new FileProcessingError(`No text could be extracted from ${source.name}`);
    const metadata = { ...out.metadata };
    if (file.type !== "image") {
      await db.processedFileCache.createMany({
        data: [
          {
            workspaceId,
            cacheKey: dbKey,
            markdown,
            metadata: metadata as Prisma.InputJsonObject,
            processingTimeMs: Math.round(performance.now() - extractStarted),
          },
        ],
        skipDuplicates: true,
      });
    }
    return remember(key, { markdown, metadata, ...(out.image ? { image: out.image } : {}), size: 0 });
  })();
  inflight.set(key, pending);
  try {
    const entry = known(await pending);
    return { entry, cache: missed ? "miss" : "hit" };
  } finally {
    if (inflight.get(key) === pending) inflight.delete(key);
  }
}

/** The entry, or its remembered extraction error thrown again. */
function known(entry: Entry): Entry {
  if (entry.error !== undefined) throw new FileProcessingError(entry.error);
  return entry;
}

function remember(key: string, entry: Entry): Entry {
  entry.size = entry.markdown.length + (entry.image?.dataUrl.length ?? 0) + 256;
  results.set(key, entry);
  return entry;
}

/**
 * The preview of one file for a member (POST …/files/preview): the same processing and caches
 * as a run. Previewing a stored file is reading; previewing a URL makes the server download and
 * parse whatever that URL serves, so it is an editor's action, as adding the URL to a case is.
 */
export async function previewFileInput(ctx: WorkspaceContext, file: FileInput, signal?: AbortSignal): Promise<FilePreviewDto> {
  if (file.url && !hasRole(ctx.role, "editor")) {
    throw new ForbiddenError("Previewing a URL downloads it: only editors, admins and owners may; viewers can preview stored files");
  }
  const { processed, image } = await processFileInput(file, { workspaceId: ctx.workspaceId, signal });
  return toFilePreview(processed, image);
}
