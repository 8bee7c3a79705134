/**
 * A file worker thread, started by ./file-pool.ts: it reads one file at a time (extraction, or the
 * import bundle's unzip) so the web process and the executor never spend their event loop on a
 * file. Its heap is limited by the pool (`resourceLimits`) and the pool stops it when a file takes
 * too long; the caps by content (./extract/limits.ts, ./extract/zip.ts) make hostile files fail
 * here in milliseconds. Loaded by Next's bundler through `new Worker(new URL(…))` and by tsx
 * elsewhere, so it imports nothing that needs the server runtime (no database, no `server-only`).
 *
 * Protocol: the worker posts `{ready: true}` once its modules are loaded; each task
 * `{id, kind, …}` is answered by `{id, ok: true, value}` or `{id, ok: false, error}`, where
 * `error.kind` is "file" for a FileProcessingError (a message for the user) or "internal".
 */
import { parentPort } from "node:worker_threads";
import { extractFile, FileProcessingError, type Extracted, type ExtractOptions } from "@/lib/files/extract";
import { unpackBundle, type BundleLimits, type UnpackedBundle } from "@/lib/files/bundle-unpack";

export type FileTask =
  { kind: "extract"; bytes: Uint8Array; options: ExtractOptions } | { kind: "bundle"; bytes: Uint8Array; limits: BundleLimits };
export type FileTaskResult<T extends FileTask> = T extends { kind: "extract" } ? Extracted : UnpackedBundle;
export type WorkerReply =
  | { ready: true }
  | { id: number; ok: true; value: Extracted | UnpackedBundle }
  | { id: number; ok: false; error: { kind: "file" | "internal"; message: string } };

async function run(task: FileTask): Promise<{ value: Extracted | UnpackedBundle; transfer: ArrayBuffer[] }> {
  if (task.kind === "extract") return { value: await extractFile(task.bytes, task.options), transfer: [] };
  const bundle = await unpackBundle(task.bytes, task.limits);
  // Each inflated entry owns its buffer: hand them over instead of copying up to 100 MB.
  return { value: bundle, transfer: bundle.files.map(([, bytes]) => bytes.buffer as ArrayBuffer) };
}

const port = parentPort;
if (port) {
  port.on("message", async (message: FileTask & { id: number }) => {
    try {
      const { value, transfer } = await run(message);
      port.postMessage({ id: message.id, ok: true, value } satisfies WorkerReply, transfer);
    } catch (err) {
      const kind = err instanceof FileProcessingError ? "file" : "internal";
      const text = err instanceof Error ? err.message : String(err);
      port.postMessage({ id: message.id, ok: false, error: { kind, message: text } } satisfies WorkerReply);
    }
  });
  port.postMessage({ ready: true } satisfies WorkerReply);
}
