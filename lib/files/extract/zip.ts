/**
 * Zip archives (docx, xlsx, pptx and the suite import bundle) read by their content, not by their
 * headers. A zip's sizes are the sender's word: a few KB can declare 10 bytes and inflate to
 * gigabytes, and fflate's one-shot unzip, like the JSZip inside mammoth and exceljs, inflates the
 * whole stream before anyone compares lengths. So every entry the central directory lists (the
 * list JSZip reads too, overlapping entries included) is inflated here in small slices while the
 * bytes that come out are counted: an entry that yields more than it declares, or an archive past
 * its limit, is refused at that point (within one 256 KB output chunk): memory and CPU stay
 * bounded by the limits, not by what the archive claims.
 *
 * After `inflateZip` returns, every declared size is known to be the true one, so a library that
 * unzips the same bytes by itself (exceljs, mammoth) gets no more than the limit either.
 */
import zlib from "node:zlib";
import { FileProcessingError } from "./errors";

/** Bytes an office archive may unpack to, counted as they come out of the inflater. */
export const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;
/** Entries a zip may list (a real office file has a few dozen to a few hundred). */
export const MAX_ZIP_ENTRIES = 10_000;

export type ZipWhat = { name: string; document: string };

export type InflateOptions = {
  /** Entries to read at all (default: every entry; a library that unzips by itself reads them all). */
  only?: (path: string) => boolean;
  /** Entries whose content is returned (the others are inflated, counted and dropped). */
  keep?: (path: string) => boolean;
  /** Sees every inflated chunk of every entry, in order (e.g. to count an xlsx sheet's cells). */
  onChunk?: (path: string, chunk: Uint8Array) => void;
  /** Called once an entry is fully inflated. */
  onEntryEnd?: (path: string) => void;
  /** Total inflated bytes allowed (default MAX_UNZIPPED_BYTES). */
  maxTotalBytes?: number;
  /** Bytes one entry may inflate to (default: no limit beyond the total). */
  maxEntryBytes?: (path: string) => number;
};

export type ZipLimit = { kind: "total" | "entry" | "entries"; entry: string | null; bytes: number };

/**
 * An archive that cannot be read (`unreadable`) or is not read (`refused`): the message names the
 * file; `reason` alone lets a caller word it for its own context (the import bundle does), and
 * `limit` says which limit an archive passed.
 */
export class ZipError extends FileProcessingError {
  constructor(
    what: ZipWhat,
    kind: "unreadable" | "refused",
    readonly reason: string,
    readonly limit: ZipLimit | null = null,
  ) {
    super(kind === "unreadable" ? `${what.name} is not a readable ${what.document}: ${reason}` : `${what.name} is refused: ${reason}`);
  }
}

type CentralEntry = {
  path: string;
  method: number;
  flags: number;
  compressedSize: number;
  declaredSize: number;
  localOffset: number;
};

/**
 * Inflates every entry of `bytes` within the limits and returns the kept ones by path. Throws a
 * FileProcessingError naming the file for an archive that is not a zip, is encrypted or corrupt,
 * forges its sizes, or passes a limit (a ZipError).
 */
export async function inflateZip(bytes: Uint8Array, what: ZipWhat, opts: InflateOptions = {}): Promise<Map<string, Uint8Array>> {
  const maxTotal = opts.maxTotalBytes ?? MAX_UNZIPPED_BYTES;
  const entries = centralDirectory(bytes, what).filter((entry) => !opts.only || opts.only(entry.path));
  // Declared sizes first: an honest archive over a limit is refused before any inflating. Each
  // entry is then held to its declared size, so the true total cannot pass the limit either.
  let declared = 0;
  for (const entry of entries) {
    const maxEntry = opts.maxEntryBytes?.(entry.path) ?? Number.POSITIVE_INFINITY;
    if (entry.declaredSize > maxEntry) throw entryTooLarge(what, entry.path, maxEntry);
    declared += entry.declaredSize;
    if (declared > maxTotal) throw totalTooLarge(what, maxTotal);
  }
  const kept = new Map<string, Uint8Array>();
  for (const entry of entries) {
    const keep = opts.keep?.(entry.path) ?? false;
    const content = await inflateEntry(entryData(bytes, entry, what), entry, what, keep, opts.onChunk);
    opts.onEntryEnd?.(entry.path);
    if (keep) kept.set(entry.path, content!);
  }
  return kept;
}

/** Checks an archive that a library unzips by itself: every entry inflates to its declared size, within the limit. */
export async function assertZipWithinLimit(bytes: Uint8Array, what: ZipWhat, opts: Omit<InflateOptions, "keep"> = {}): Promise<void> {
  await inflateZip(bytes, what, opts);
}

/** The entries `wanted` selects, inflated within the limits (the others are checked, not kept). */
export async function readZipEntries(
  bytes: Uint8Array,
  what: ZipWhat,
  wanted: (path: string) => boolean,
): Promise<Record<string, Uint8Array>> {
  return Object.fromEntries(await inflateZip(bytes, what, { keep: wanted }));
}

/* ── Inflating one entry, counted ───────────────────────────────────────────────────────────── */

/** zlib hands its output over in chunks of this size: the most an entry can get past its allowance before it is stopped. */
const OUTPUT_CHUNK = 256 * 1024;

function inflateEntry(
  data: Uint8Array,
  entry: CentralEntry,
  what: ZipWhat,
  keep: boolean,
  onChunk: InflateOptions["onChunk"],
): Promise<Uint8Array | null> {
  if (entry.method === 0) {
    if (data.byteLength !== entry.declaredSize) return Promise.reject(forged(what, entry, data.byteLength));
    onChunk?.(entry.path, data);
    return Promise.resolve(keep ? data.slice() : null);
  }
  // Node's zlib streams (native, in the thread pool): output arrives chunk by chunk and is counted,
  // so the stream is stopped where it passes the size it declared, not where its input ends.
  const out = keep ? new Uint8Array(entry.declaredSize) : null;
  let produced = 0;
  return new Promise((resolve, reject) => {
    const inflater = zlib.createInflateRaw({ chunkSize: OUTPUT_CHUNK });
    const stop = (err: Error) => {
      inflater.removeAllListeners("data");
      inflater.destroy();
      reject(err);
    };
    inflater.on("data", (chunk: Buffer) => {
      if (produced + chunk.byteLength > entry.declaredSize) return stop(forged(what, entry, produced + chunk.byteLength));
      try {
        onChunk?.(entry.path, chunk);
      } catch (err) {
        return stop(err instanceof Error ? err : new Error(String(err)));
      }
      out?.set(chunk, produced);
      produced += chunk.byteLength;
    });
    inflater.on("error", () => stop(corrupt(what)));
    inflater.on("end", () => (produced === entry.declaredSize ? resolve(out) : reject(forged(what, entry, produced))));
    inflater.end(data);
  });
}

/* ── The central directory ──────────────────────────────────────────────────────────────────── */

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const UTF8_NAMES = 0x800;
const ENCRYPTED = 0x1;

function centralDirectory(bytes: Uint8Array, what: ZipWhat): CentralEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => (at + 2 <= bytes.byteLength ? view.getUint16(at, true) : fail());
  const u32 = (at: number) => (at + 4 <= bytes.byteLength ? view.getUint32(at, true) : fail());
  const u64 = (at: number) => u32(at) + u32(at + 4) * 2 ** 32;
  const fail = (): never => {
    throw corrupt(what);
  };

  // The end-of-central-directory record is in the last 64 KB + 22 bytes (after an optional comment).
  let eocd = bytes.byteLength - 22;
  const stop = Math.max(0, bytes.byteLength - 22 - 0xffff);
  while (eocd >= stop && u32(eocd) !== EOCD) eocd--;
  if (eocd < stop) fail();
  let count = u16(eocd + 10);
  let offset = u32(eocd + 16);
  if (eocd >= 20 && u32(eocd - 20) === ZIP64_LOCATOR) {
    const z = u64(eocd - 12);
    if (u32(z) !== ZIP64_EOCD) fail();
    count = u64(z + 32);
    offset = u64(z + 48);
  }
  if (count > MAX_ZIP_ENTRIES) {
    throw new ZipError(what, "refused", `its archive lists more than ${MAX_ZIP_ENTRIES.toLocaleString("en-US")} entries`, {
      kind: "entries",
      entry: null,
      bytes: 0,
    });
  }

  const entries: CentralEntry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (u32(at) !== CENTRAL) fail();
    const flags = u16(at + 8);
    const method = u16(at + 10);
    let compressedSize = u32(at + 20);
    let declaredSize = u32(at + 24);
    const nameLength = u16(at + 28);
    const extraLength = u16(at + 30);
    const commentLength = u16(at + 32);
    let localOffset = u32(at + 42);
    const nameBytes = slice(bytes, at + 46, nameLength, what);
    const path = new TextDecoder(flags & UTF8_NAMES ? "utf-8" : "latin1").decode(nameBytes);
    // ZIP64: sizes and offset that do not fit 32 bits are in the extra field 0x0001, in this order.
    if (declaredSize === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      const extra = at + 46 + nameLength;
      let e = extra;
      while (e + 4 <= extra + extraLength) {
        const id = u16(e);
        const size = u16(e + 2);
        if (id === 0x0001) {
          let f = e + 4;
          if (declaredSize === 0xffffffff) {
            declaredSize = u64(f);
            f += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = u64(f);
            f += 8;
          }
          if (localOffset === 0xffffffff) localOffset = u64(f);
          break;
        }
        e += 4 + size;
      }
    }
    if (flags & ENCRYPTED) throw new ZipError(what, "unreadable", "it is password-protected");
    if (method !== 0 && method !== 8) throw new ZipError(what, "unreadable", "it uses an unsupported compression method");
    entries.push({ path, method, flags, compressedSize, declaredSize, localOffset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The entry's compressed bytes, found through its local header (whose name and extra lengths may differ from the central ones). */
function entryData(bytes: Uint8Array, entry: CentralEntry, what: ZipWhat): Uint8Array {
  const at = entry.localOffset;
  if (at + 30 > bytes.byteLength) throw corrupt(what);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(at, true) !== LOCAL) throw corrupt(what);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  return slice(bytes, start, entry.compressedSize, what);
}

function slice(bytes: Uint8Array, start: number, length: number, what: ZipWhat): Uint8Array {
  if (start + length > bytes.byteLength) throw corrupt(what);
  return bytes.subarray(start, start + length);
}

/* ── Messages ───────────────────────────────────────────────────────────────────────────────── */

function corrupt(what: ZipWhat): ZipError {
  return new ZipError(what, "unreadable", "it is not a valid zip archive (corrupt or truncated)");
}

function forged(what: ZipWhat, entry: CentralEntry, actual: number): ZipError {
  const got = actual > entry.declaredSize ? "more than" : `${formatSize(actual)}, not`;
  return new ZipError(
    what,
    "refused",
    `its entry ${JSON.stringify(entry.path)} inflates to ${got} the ${formatSize(entry.declaredSize)} its header declares (a forged or corrupt archive)`,
  );
}

function totalTooLarge(what: ZipWhat, limit: number): ZipError {
  return new ZipError(what, "refused", `its archive unpacks to more than ${formatSize(limit)}`, {
    kind: "total",
    entry: null,
    bytes: limit,
  });
}

function entryTooLarge(what: ZipWhat, entry: string, limit: number): ZipError {
  return new ZipError(what, "refused", `its entry ${JSON.stringify(entry)} unpacks to more than ${formatSize(limit)}`, {
    kind: "entry",
    entry,
    bytes: limit,
  });
}

/** "200 MB", "10 bytes", "1.5 KB": sizes in messages. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? "" : "s"}`;
  const [value, unit] = bytes < 1024 * 1024 ? [bytes / 1024, "KB"] : [bytes / (1024 * 1024), "MB"];
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`;
}
