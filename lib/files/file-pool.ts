/**
 * The file worker pool: every extraction and every import bundle's unzip runs in one of a few
 * worker threads (./file-worker.ts), never on the event loop of the web process or the executor.
 * Each worker has a heap limit (`resourceLimits`, ASSAY_FILE_EXTRACT_HEAP_MB) and each file a
 * wall-clock limit (ASSAY_FILE_EXTRACT_TIMEOUT_MS, counted from the moment a worker takes it):
 * a worker that runs out of either is stopped and replaced, and the file fails with a
 * FileLimitError that names it and the limit. Files beyond the pool's size wait in line.
 *
 * Workers start on the first file (a process that never reads one spends no memory on them),
 * load every extractor once, and stop after IDLE_MS without work. An idle worker does not keep
 * the process alive; a busy one does, until its file is answered.
 *
 * Why not piscina: it starts its own worker script, which then imports the task file by path at
 * run time. Next's bundler only bundles a worker it can see as `new Worker(new URL("./x.ts",
 * import.meta.url))`; tsx (the executor, tests) loads the same file from source.
 */
import { Worker } from "node:worker_threads";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { FileProcessingError } from "@/lib/files/extract/errors";
import type { FileTask, FileTaskResult, WorkerReply } from "@/lib/files/file-worker";

/** A file that needed more time or memory than one file may use. */
export class FileLimitError extends FileProcessingError {
  constructor(
    message: string,
    readonly limit: "time" | "memory",
  ) {
    super(message);
    this.name = "FileLimitError";
  }
}

export type FilePoolOptions = {
  /** Worker threads at most (ASSAY_FILE_WORKERS). */
  size: number;
  /** Heap limit of each worker, MB (ASSAY_FILE_EXTRACT_HEAP_MB). */
  heapMb: number;
  /** Wall-clock limit per file, ms (ASSAY_FILE_EXTRACT_TIMEOUT_MS). */
  timeoutMs: number;
  /** An idle worker stops after this long (default IDLE_MS). */
  idleMs?: number;
};

/** Idle workers are stopped after a minute: a run's files come in bursts. */
const IDLE_MS = 60_000;

type Job = {
  id: number;
  task: FileTask;
  /** The file's name, for messages. */
  label: string;
  resolve: (value: never) => void;
  reject: (err: Error) => void;
};

type Slot = {
  worker: Worker;
  state: "starting" | "idle" | "busy" | "gone";
  job: Job | null;
  timer: NodeJS.Timeout | null;
};

export class FilePool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private replacedCount = 0;
  private closed = false;

  constructor(private readonly opts: FilePoolOptions) {}

  /** Runs `task` in a worker; rejects with a FileProcessingError (bad file), a FileLimitError, or an Error (worker failure). */
  run<T extends FileTask>(task: T, label: string): Promise<FileTaskResult<T>> {
    if (this.closed) return Promise.reject(new Error("The file worker pool is closed"));
    return new Promise<FileTaskResult<T>>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task: ownBytes(task), label, resolve: resolve as (value: never) => void, reject });
      this.pump();
    });
  }

  /** Workers alive, files in progress and waiting, workers replaced after a limit or crash (tests, health). */
  stats(): { workers: number; busy: number; queued: number; replaced: number } {
    const live = [...this.slots].filter((s) => s.state !== "gone");
    return {
      workers: live.length,
      busy: live.filter((s) => s.state === "busy").length,
      queued: this.queue.length,
      replaced: this.replacedCount,
    };
  }

  /** Stops every worker; files in progress or waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error("The file worker pool was closed"));
    await Promise.all([...this.slots].map((slot) => this.retire(slot, new Error("The file worker pool was closed"))));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = [...this.slots].find((s) => s.state === "idle");
      if (slot) {
        this.dispatch(slot, this.queue.shift()!);
        continue;
      }
      const alive = [...this.slots].filter((s) => s.state !== "gone").length;
      const starting = [...this.slots].filter((s) => s.state === "starting").length;
      // One worker starting per waiting file at most, and never more than the pool's size.
      if (alive < this.opts.size && starting < this.queue.length) this.spawn();
      return;
    }
  }

  private spawn(): void {
    const worker = startWorker(this.opts.heapMb);
    const slot: Slot = { worker, state: "starting", job: null, timer: null };
    this.slots.add(slot);
    worker.unref();
    worker.on("message", (reply: WorkerReply | { failed: string }) => this.onReply(slot, reply));
    worker.on("error", (err: Error & { code?: string }) => this.onError(slot, err));
    worker.on("exit", (code) => this.onExit(slot, code));
  }

  private dispatch(slot: Slot, job: Job): void {
    this.clearTimer(slot);
    slot.state = "busy";
    slot.job = job;
    // A busy worker keeps the process alive until its file is answered (a script awaiting it must not exit).
    slot.worker.ref();
    slot.timer = setTimeout(() => this.onTimeout(slot, job), this.opts.timeoutMs);
    slot.worker.postMessage({ id: job.id, ...job.task }, [job.task.bytes.buffer as ArrayBuffer]);
  }

  private onReply(slot: Slot, reply: WorkerReply | { failed: string }): void {
    if ("failed" in reply) return this.onError(slot, new Error(reply.failed));
    if ("ready" in reply) {
      if (slot.state !== "starting") return;
      this.idle(slot);
      return this.pump();
    }
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    slot.job = null;
    if (reply.ok) job.resolve(reply.value as never);
    else job.reject(reply.error.kind === "file" ? new FileProcessingError(reply.error.message) : new Error(reply.error.message));
    this.idle(slot);
    this.pump();
  }

  private onTimeout(slot: Slot, job: Job): void {
    if (slot.job !== job) return;
    const limit = formatDuration(this.opts.timeoutMs);
    this.replace(
      slot,
      new FileLimitError(
        `${job.label} could not be read within ${limit}, the time limit for one file (ASSAY_FILE_EXTRACT_TIMEOUT_MS)`,
        "time",
      ),
    );
  }

  private onError(slot: Slot, err: Error & { code?: string }): void {
    const job = slot.job;
    if (err.code === "ERR_WORKER_OUT_OF_MEMORY" && job) {
      const message = `${job.label} needs more memory than one file may use (${this.opts.heapMb} MB, ASSAY_FILE_EXTRACT_HEAP_MB)`;
      return this.replace(slot, new FileLimitError(message, "memory"));
    }
    logger.error({ err, file: job?.label }, "file worker failed");
    if (slot.state === "starting") {
      // A worker that cannot even start (a broken build, a missing module) would fail every file the same way.
      for (const waiting of this.queue.splice(0)) waiting.reject(new Error("The file worker could not start"));
    }
    this.replace(slot, new Error("The file worker failed"));
  }

  private onExit(slot: Slot, code: number): void {
    if (slot.state === "gone") return;
    this.replace(slot, new Error(`The file worker stopped (exit code ${code})`));
  }

  /** Stops a worker that ran out of a limit or failed, fails its file, and lets the next file start a new one. */
  private replace(slot: Slot, err: Error): void {
    if (slot.state === "gone") return;
    this.replacedCount++;
    void this.retire(slot, err);
    this.pump();
  }

  private async retire(slot: Slot, err: Error): Promise<void> {
    if (slot.state === "gone") return;
    slot.state = "gone";
    this.clearTimer(slot);
    this.slots.delete(slot);
    const job = slot.job;
    slot.job = null;
    job?.reject(err);
    await slot.worker.terminate().catch(() => undefined);
  }

  private idle(slot: Slot): void {
    this.clearTimer(slot);
    slot.state = "idle";
    slot.worker.unref();
    slot.timer = setTimeout(() => void this.retire(slot, new Error("idle")), this.opts.idleMs ?? IDLE_MS);
    slot.timer.unref();
  }

  private clearTimer(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
  }
}

/**
 * The worker thread. In Next's server bundle (`next build`, `next dev`: NEXT_RUNTIME is set there
 * at build time, as instrumentation.ts relies on) the bundler sees `new Worker(new URL(…))` and
 * bundles the worker as an entry of its own. Run from source (the executor under tsx, Vitest),
 * the worker registers tsx itself before importing the .ts file: tsx's `--import` hook does not
 * reach worker threads, and without it the `@/` paths would not resolve.
 */
function startWorker(heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb };
  // eslint-disable-next-line no-restricted-properties -- a constant Next's bundler writes in, not configuration
  if (process.env.NEXT_RUNTIME === "nodejs") {
    return new Worker(new URL("./file-worker.ts", import.meta.url), { resourceLimits });
  }
  const entry = new URL("./file-worker.ts", import.meta.url).href;
  return new Worker(TSX_BOOTSTRAP, { eval: true, workerData: { entry }, resourceLimits });
}

/**
 * A worker script (CommonJS, resolved from the working directory, the project root) that loads
 * tsx, then the worker; a failure to load is reported to the pool, which logs it and fails the
 * files waiting (a worker being stopped may fail to load too: then nobody listens any more).
 */
const TSX_BOOTSTRAP = `
const { workerData } = require("node:worker_threads");
import("tsx/esm/api")
  .then(({ register }) => {
    register();
    return import(workerData.entry);
  })
  .catch((err) => {
    require("node:worker_threads").parentPort.postMessage({ failed: String((err && err.stack) || err) });
  });
`;

/** The bytes in a buffer of their own: it is transferred to the worker, and a Buffer may share Node's pool with others. */
function ownBytes<T extends FileTask>(task: T): T {
  const bytes = new Uint8Array(task.bytes.byteLength);
  bytes.set(task.bytes);
  return { ...task, bytes };
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}

const globalForPool = globalThis as unknown as { assayFilePool?: FilePool };

/** This process's pool, configured from the environment (kept on globalThis so a dev reload does not start a second one). */
export function filePool(): FilePool {
  return (globalForPool.assayFilePool ??= new FilePool({
    size: env.ASSAY_FILE_WORKERS,
    heapMb: env.ASSAY_FILE_EXTRACT_HEAP_MB,
    timeoutMs: env.ASSAY_FILE_EXTRACT_TIMEOUT_MS,
  }));
}
