/**
 * Hostile files: each input of the files denial-of-service report, generated here (a few KB to
 * 1 MB), goes through the path a run or a request takes (processFileInput, the import and export
 * routes) while a real run of text cases executes in the same process. For each input the test
 * asserts a clear error, the process's peak RSS growth (Linux's high-water mark, reset before the
 * input: worker threads and native memory count) within +150 MB, and that the concurrent run kept
 * completing cases with the event loop never blocked for long. A table of the figures is printed
 * at the end.
 *
 * "Blocked" is measured in the main thread's own CPU time between two turns of the event loop
 * (`process.threadCpuUsage`): on a shared machine a turn can come late because the process had no
 * CPU, which is not the loop being held by work. The wall-clock gap is reported beside it.
 *
 * The baseline is a warm process: the file workers have started (one benign file read) and the
 * concurrent run is under way, as on a server that has read a file before.
 */
import fs from "node:fs";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import YAML from "yaml";
import { NextRequest } from "next/server";
import { db, pool } from "@/lib/db";
import { fileRef, type FileInputDocument, fileInputSchema } from "@/lib/files/schemas";
import { storeFileBytes } from "@/lib/files/service";
import { processFileInput, resetFileProcessingCaches } from "@/lib/files/processing";
import { cancelRun, getRun, startRun } from "@/lib/runs/service";
import type { WorkspaceContext } from "@/lib/auth/roles";
import * as importRoute from "@/app/api/v1/suites/[id]/test-cases/import/route";
import * as exportRoute from "@/app/api/v1/suites/[id]/test-cases/export/route";
import { withRunStack } from "../helpers/run-stack";
import { makeApiKey, makeWorkspace, makeSuiteWithCases, waitFor, runnableCase, makeSuite, waitUntilFinished } from "../helpers/factories";
import { makeCsv, makeDocx, makePptx, makeXlsx } from "./fixtures";
import { cornerToCornerXlsx, deflatedZeros, hugeBlankPng, storedEntries, wideHeaderCsv, withLyingEntry, writeZip } from "./hostile-inputs";

const MB = 1024 * 1024;
/** What one hostile file may add to the process's resident memory. */
const MAX_RSS_GROWTH_MB = 150;
/** The most CPU time the main thread may spend between two turns of its event loop while a hostile file is handled. */
const MAX_BLOCKED_MS = 250;
/** The concurrent run is watched at least this long per input, so a fast refusal still shows it progressing. */
const MIN_WINDOW_MS = 400;

type Figures = { ms: number; rssGrowthMb: number; blockedMs: number; loopGapMs: number; casesDone: number };
type Row = Figures & { input: string; error: string };
const rows: Row[] = [];

// Each agent call takes 20 ms: with 4 slots the concurrent run completes ~150 cases a second.
const { fake } = withRunStack({ fake: { latencyMs: 20 }, executor: { pollMs: 20, maxSlots: 4 }, stopGraceMs: 2000 });
let ctx: WorkspaceContext;
let editorKey: string;
let concurrentRunId: string;

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  editorKey = await makeApiKey(ctx.workspaceId, "editor");
  const { suite } = await makeSuiteWithCases(ctx, 5000, { baseUrl: fake.url });
  concurrentRunId = (await startRun(ctx, suite.id, {}, "manual")).id;
  await waitFor(
    () => casesDone(),
    (n) => n > 0,
  );
  // Warm: the file workers start with the first file, as on a server that has read one before.
  expect((await processFile("warm-up.csv", makeCsv(), { type: "csv" })).processed.error).toBeNull();
}, 60_000);

afterAll(async () => {
  await cancelRun(ctx, concurrentRunId).catch(() => undefined);
  printTable();
});

/** Cases of the concurrent run that have finished. */
function casesDone(): Promise<number> {
  return db.caseResult.count({ where: { runId: concurrentRunId, status: { in: ["passed", "failed", "error"] } } });
}

async function processFile(name: string, bytes: Buffer, file: Omit<FileInputDocument, "path">) {
  const { file: stored } = await storeFileBytes(ctx.workspaceId, { name, bytes, origin: "upload" });
  resetFileProcessingCaches();
  return processFileInput(fileInputSchema.parse({ ...file, path: fileRef(stored.id) }), { workspaceId: ctx.workspaceId });
}

function statusKb(field: "VmRSS" | "VmHWM"): number {
  const line = fs
    .readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${field}:`));
  return Number(/(\d+)/.exec(line ?? "")?.[1] ?? 0);
}

/** CPU time of this thread (the event loop's), ms. */
function threadCpuMs(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
}

/**
 * Runs `work` and measures: its time, the peak RSS growth (the kernel's high-water mark, reset
 * first, so no allocation between two samples is missed, in any thread), the most main-thread
 * CPU and the longest wall-clock time between two turns of the event loop, and the cases the
 * concurrent run finished meanwhile.
 */
async function measure<T>(work: () => Promise<T>): Promise<Figures & { value: T }> {
  fs.writeFileSync("/proc/self/clear_refs", "5");
  const baseKb = statusKb("VmRSS");
  const doneBefore = await casesDone();
  let last = performance.now();
  let lastCpu = threadCpuMs();
  let loopGapMs = 0;
  let blockedMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = threadCpuMs();
    loopGapMs = Math.max(loopGapMs, now - last);
    blockedMs = Math.max(blockedMs, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  }, 5);
  const started = performance.now();
  try {
    const timed = (async () => {
      const value = await work();
      return { value, ms: performance.now() - started };
    })();
    const [{ value, ms }] = await Promise.all([timed, new Promise((r) => setTimeout(r, MIN_WINDOW_MS))]);
    const rssGrowthMb = (statusKb("VmHWM") - baseKb) / 1024;
    return { value, ms, rssGrowthMb, blockedMs, loopGapMs, casesDone: (await casesDone()) - doneBefore };
  } finally {
    clearInterval(ticker);
  }
}

/** Records the row and asserts the figures every hostile input must meet. */
function check(input: string, error: string, m: Figures) {
  const { ms, rssGrowthMb, blockedMs, loopGapMs, casesDone } = m;
  rows.push({ input, error, ms, rssGrowthMb, blockedMs, loopGapMs, casesDone });
  expect(m.rssGrowthMb, `${input}: peak RSS growth`).toBeLessThan(MAX_RSS_GROWTH_MB);
  expect(m.blockedMs, `${input}: main-thread CPU between two turns of the event loop`).toBeLessThan(MAX_BLOCKED_MS);
  expect(m.casesDone, `${input}: cases the concurrent run finished meanwhile`).toBeGreaterThan(0);
}

function printTable() {
  const head = ["input", "error (what the user reads)", "time", "peak RSS growth", "loop blocked (CPU / wall)", "concurrent run"];
  const lines = rows.map((r) => [
    r.input,
    r.error.length > 110 ? `${r.error.slice(0, 107)}...` : r.error,
    `${Math.round(r.ms)} ms`,
    `${r.rssGrowthMb.toFixed(1)} MB`,
    `${Math.round(r.blockedMs)} / ${Math.round(r.loopGapMs)} ms`,
    `${r.casesDone} cases done`,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
  const table = [fmt(head), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...lines.map(fmt)].join("\n");
  // A report for the reader of the test output (CI logs).
  console.log(`\nHostile files (peak RSS over a warm baseline; the concurrent run: ${MIN_WINDOW_MS} ms window at least)\n${table}\n`);
}

describe("hostile files fail fast with a clear error, within +150 MB, while a concurrent run keeps going", () => {
  it("1. a 6 KB xlsx with values only in A1 and XFD1048576 (17 billion cells)", async () => {
    const xlsx = await cornerToCornerXlsx();
    const m = await measure(() => processFile("corners.xlsx", xlsx, { type: "excel" }));
    const error = m.value.processed.error ?? "";
    expect(error).toMatch(
      /^corners\.xlsx: sheet "Data" spans A1:XFD1048576 \(17,179,869,184 cells\), more than the 200,000 cells .*"range": "A1:XFD12"/,
    );
    check(`xlsx A1 + XFD1048576 (${(xlsx.byteLength / 1024).toFixed(0)} KB)`, error, m);
  });

  it("2. a 160 KB CSV: a 40,000-field first row, then 40,000 one-field rows", async () => {
    const csv = wideHeaderCsv();
    const m = await measure(() => processFile("wide.csv", csv, { type: "csv" }));
    const error = m.value.processed.error ?? "";
    expect(error).toMatch(/^wide\.csv is refused: its table has at least \d+ rows × 40,000 columns .*ASSAY_FILE_MAX_CELLS/);
    check("csv 40,000 × 40,000 (160 KB)", error, m);
  });

  it.each([
    ["docx", "memo.docx", "word", makeDocx, 256],
    ["xlsx", "sales.xlsx", "excel", makeXlsx, 256],
  ] as const)(
    "3. a %s whose extra entry declares 10 bytes and inflates to 256 MB (mammoth/exceljs would inflate it all)",
    async (kind, name, type, make, mb) => {
      const bomb = withLyingEntry(await make(), mb);
      const m = await measure(() => processFile(name, bomb, { type }));
      const error = m.value.processed.error ?? "";
      expect(error).toBe(
        `${name} is refused: its entry "docProps/custom.xml" inflates to more than the 10 bytes its header declares (a forged or corrupt archive)`,
      );
      check(`${kind}, entry declares 10 B, inflates ${mb} MB (${(bomb.byteLength / 1024).toFixed(0)} KB)`, error, m);
    },
  );

  it("3. a pptx whose slide declares 10 bytes and inflates to 1 GB (the one-shot inflate ran through all of it)", async () => {
    const bomb = writeZip([
      ...storedEntries(await makePptx()),
      { name: "ppt/slides/slide9.xml", data: deflatedZeros(1024), method: 8, declaredSize: 10 },
    ]);
    const m = await measure(() => processFile("deck.pptx", bomb, { type: "powerpoint" }));
    const error = m.value.processed.error ?? "";
    expect(error).toMatch(/^deck\.pptx is refused: its entry "ppt\/slides\/slide9\.xml" inflates to more than the 10 bytes/);
    check(`pptx, slide declares 10 B, inflates 1 GB (${(bomb.byteLength / 1024).toFixed(0)} KB)`, error, m);
  });

  it("3. an import bundle whose file declares 10 bytes and inflates to 1 GB: 400, nothing stored", async () => {
    const suiteId = (await makeSuite(ctx.workspaceId)).id;
    const doc = YAML.stringify([runnableCase({ name: "bundled", files: [{ path: "files/data.txt", type: "text" }] })]);
    const bomb = writeZip([
      { name: "test-cases.yaml", data: Buffer.from(doc), method: 0, declaredSize: Buffer.byteLength(doc) },
      { name: "files/data.txt", data: deflatedZeros(1024), method: 8, declaredSize: 10 },
    ]);
    const m = await measure(async () => {
      const req = new NextRequest(new URL(`/api/v1/suites/${suiteId}/test-cases/import`, "http://localhost"), {
        method: "POST",
        headers: { authorization: `Bearer ${editorKey}`, "content-type": "application/zip" },
        body: new Uint8Array(bomb),
      });
      const res = await importRoute.POST(req, { params: Promise.resolve({ id: suiteId }) });
      return { status: res.status, json: await res.json() };
    });
    expect(m.value.status).toBe(400);
    const error: string = m.value.json.error.message;
    expect(error).toBe(
      'The zip could not be read: its entry "files/data.txt" inflates to more than the 10 bytes its header declares (a forged or corrupt archive)',
    );
    expect(await db.testCase.count({ where: { suiteId } })).toBe(0);
    check(`import bundle, file declares 10 B, inflates 1 GB (${(bomb.byteLength / 1024).toFixed(0)} KB)`, error, m);
  });

  it("4. a 260 KB PNG of 16,383 × 16,383 pixels (268 MP: ~1 GB decoded as RGBA)", async () => {
    const png = hugeBlankPng();
    const m = await measure(() => processFile("blank.png", png, { type: "image" }));
    const error = m.value.processed.error ?? "";
    expect(error).toBe(
      "blank.png is refused: it is 16,383×16,383 pixels (268 megapixels), more than the 40 megapixels Assay decodes; scale it down first",
    );
    check(`png 16,383 × 16,383 (${(png.byteLength / 1024).toFixed(0)} KB)`, error, m);
  });

  it("5. the zip export of a suite whose case uses 8 files of 12 MB streams them one at a time", async () => {
    const suiteId = (await makeSuite(ctx.workspaceId, "Heavy files")).id;
    // Written by PostgreSQL itself, so this process has never held the 96 MB before the export reads them.
    const files = [];
    for (let i = 0; i < 8; i++) {
      const key = `${ctx.workspaceId}/heavy-${i}`;
      await pool.query(
        `INSERT INTO "FileBlob" ("key", "workspaceId", "data")
         VALUES ($1, $2, decode('255044462d312e370a', 'hex') || convert_to(repeat(md5($1), $3), 'UTF8'))`,
        [key, ctx.workspaceId, (12 * MB) / 32],
      );
      const file = await db.storedFile.create({
        data: {
          workspaceId: ctx.workspaceId,
          name: `scan-${i}.pdf`,
          sizeBytes: 12 * MB + 9,
          contentType: "application/pdf",
          kind: "pdf",
          sha256: createHash("sha256").update(key).digest("hex"),
          storageKey: key,
          origin: "upload",
        },
      });
      files.push({ path: fileRef(file.id), type: "pdf" as const });
    }
    await db.testCase.create({
      data: { workspaceId: ctx.workspaceId, suiteId, name: "eight scans", initialMessage: "Summarise", sortOrder: 0, files },
    });
    const m = await measure(async () => {
      const req = new NextRequest(new URL(`/api/v1/suites/${suiteId}/test-cases/export?format=zip`, "http://localhost"), {
        headers: { authorization: `Bearer ${editorKey}` },
      });
      const res = await exportRoute.GET(req, { params: Promise.resolve({ id: suiteId }) });
      // Read to the end without keeping it: a client writing the download to disk.
      let bytes = 0;
      let chunks = 0;
      const reader = res.body!.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        bytes += next.value.byteLength;
        chunks++;
      }
      return { status: res.status, bytes, chunks };
    });
    expect(m.value.status).toBe(200);
    expect(m.value.bytes).toBeGreaterThan(8 * 12 * MB);
    expect(m.value.chunks).toBeGreaterThan(8);
    check(`zip export, 8 files × 12 MB (${Math.round(m.value.bytes / MB)} MB streamed)`, "(none: streamed)", m);
  }, 60_000);
});

describe("a run whose cases carry the hostile files", () => {
  it("ends each such case as an error at files_failed, naming the file and the limit, while the concurrent run goes on", async () => {
    const inputs: [string, Buffer, FileInputDocument["type"], RegExp][] = [
      ["corners.xlsx", await cornerToCornerXlsx(), "excel", /corners\.xlsx: sheet "Data" spans A1:XFD1048576 .*ASSAY_FILE_MAX_CELLS/],
      ["wide.csv", wideHeaderCsv(), "csv", /wide\.csv is refused: .*ASSAY_FILE_MAX_CELLS/],
      [
        "memo.docx",
        withLyingEntry(await makeDocx(), 256),
        "word",
        /memo\.docx is refused: its entry "docProps\/custom\.xml" inflates to more than the 10 bytes/,
      ],
      ["blank.png", hugeBlankPng(), "image", /blank\.png is refused: it is 16,383×16,383 pixels .*40 megapixels/],
    ];
    const paths: string[] = [];
    for (const [name, bytes] of inputs)
      paths.push(fileRef((await storeFileBytes(ctx.workspaceId, { name, bytes, origin: "upload" })).file.id));
    const { suite } = await makeSuiteWithCases(ctx, inputs.length, {
      baseUrl: fake.url,
      caseData: (i) => ({ files: [{ path: paths[i], type: inputs[i]![2] }] }),
    });
    const doneBefore = await casesDone();
    const run = await startRun(ctx, suite.id, {}, "manual");
    const finished = await waitUntilFinished(() => getRun(ctx, run.id), 30_000);
    expect(finished.status).toBe("completed");
    const results = await db.caseResult.findMany({
      where: { runId: run.id },
      select: { status: true, stage: true, errorMessage: true },
      orderBy: { position: "asc" },
    });
    expect(results).toHaveLength(inputs.length);
    results.forEach((r, i) => {
      expect(r).toMatchObject({ status: "error", stage: "files_failed" });
      expect(r.errorMessage).toMatch(new RegExp(`^File 1 of 1: ${inputs[i]![3].source}`));
    });
    expect(await casesDone()).toBeGreaterThan(doneBefore);
  }, 60_000);
});
