/**
 * The file worker pool (lib/files/file-pool.ts): files are read in worker threads, so the event
 * loop stays free while a large file is extracted; a file over the time or memory limit fails
 * with a message that names it and the limit, its worker is replaced, and the next file is read
 * by a new one; files beyond the pool's size wait their turn.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FileProcessingError } from "@/lib/files/extract";
import { FileLimitError, FilePool, type FilePoolOptions } from "@/lib/files/file-pool";
import { makeCsv, makeXlsx } from "./fixtures";
import { withBigFirstSheet } from "./hostile-inputs";
import { rejectionOf } from "../helpers/errors";

const pools: FilePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(opts: Partial<FilePoolOptions> = {}): FilePool {
  const p = new FilePool({ size: 1, heapMb: 512, timeoutMs: 60_000, ...opts });
  pools.push(p);
  return p;
}

const extract = (p: FilePool, bytes: Uint8Array, type: "excel" | "csv" | "text", name: string) =>
  p.run({ kind: "extract", bytes, options: { type, name } }, name);

/** The error `promise` rejects with. */
const failure = (promise: Promise<unknown>) => rejectionOf(promise, Error);

describe("the file worker pool", () => {
  it("reads a file in a worker thread: the event loop keeps turning while a 40,000-cell workbook is extracted", async () => {
    const p = pool();
    await extract(p, makeCsv(), "csv", "warm.csv");
    const big = withBigFirstSheet(await makeXlsx(), 4000, 10);
    let cpuBetweenTurns = 0;
    let last = process.threadCpuUsage();
    const ticker = setInterval(() => {
      const now = process.threadCpuUsage(last);
      cpuBetweenTurns = Math.max(cpuBetweenTurns, (now.user + now.system) / 1000);
      last = process.threadCpuUsage();
    }, 5);
    const out = await extract(p, big, "excel", "big.xlsx").finally(() => clearInterval(ticker));
    expect(out.metadata).toMatchObject({ rows: 4003, columns: 10 });
    expect(cpuBetweenTurns).toBeLessThan(100);
  });

  it("stops a file over the time limit, naming it and the limit; the worker is replaced and the next file is read", async () => {
    const p = pool({ timeoutMs: 100 });
    await extract(p, makeCsv(), "csv", "warm.csv");
    const err = await failure(extract(p, withBigFirstSheet(await makeXlsx(), 4000, 10), "excel", "slow.xlsx"));
    expect(err).toBeInstanceOf(FileLimitError);
    expect(err.message).toBe("slow.xlsx could not be read within 100 ms, the time limit for one file (ASSAY_FILE_EXTRACT_TIMEOUT_MS)");
    expect(p.stats()).toMatchObject({ replaced: 1, busy: 0 });
    expect((await extract(p, makeCsv(), "csv", "next.csv")).metadata).toMatchObject({ rows: 3 });
  });

  it("stops a file that needs more memory than the heap limit, naming it and the limit; the next file is read by a new worker", async () => {
    const p = pool({ heapMb: 32 });
    await extract(p, makeCsv(), "csv", "warm.csv");
    // 198,000 cells (within the cell cap) as strings, rows and a markdown table: more than 32 MB leave beside the extractors.
    const csv = Array.from({ length: 450 }, (_, r) =>
      Array.from({ length: 440 }, (_, c) => `value-${r}-${c}-of-a-wide-table`).join(","),
    ).join("\n");
    const err = await failure(extract(p, Buffer.from(csv), "csv", "huge.csv"));
    expect(err).toBeInstanceOf(FileLimitError);
    expect(err.message).toBe("huge.csv needs more memory than one file may use (32 MB, ASSAY_FILE_EXTRACT_HEAP_MB)");
    expect(p.stats().replaced).toBe(1);
    expect((await extract(p, makeCsv(), "csv", "next.csv")).metadata).toMatchObject({ rows: 3 });
  });

  it("passes an extractor's refusal through as a FileProcessingError and keeps the worker", async () => {
    const p = pool();
    const err = await failure(extract(p, Buffer.from([0x61, 0xff, 0xfe]), "text", "bad.txt"));
    expect(err).toBeInstanceOf(FileProcessingError);
    expect(err).not.toBeInstanceOf(FileLimitError);
    expect(err.message).toMatch(/^bad\.txt is not a text file/);
    expect(p.stats()).toMatchObject({ workers: 1, replaced: 0 });
  });

  it("runs at most `size` files at once; the others wait their turn and all are answered", async () => {
    const p = pool({ size: 2 });
    const files = Array.from({ length: 6 }, (_, i) => extract(p, Buffer.from(`n,v\nrow,${i}\n`), "csv", `f${i}.csv`));
    await new Promise((r) => setTimeout(r, 0));
    expect(p.stats().workers).toBeLessThanOrEqual(2);
    const out = await Promise.all(files);
    expect(out.map((o) => o.markdown)).toEqual(Array.from({ length: 6 }, (_, i) => `| n | v |\n| --- | --- |\n| row | ${i} |`));
    expect(p.stats()).toMatchObject({ workers: 2, busy: 0, queued: 0, replaced: 0 });
  });
});
