import { logger } from "@/lib/logger";

/**
 * A download written while it is read: each chunk of `source` (a report's header, then one page
 * of rows at a time) is encoded and queued only when the reader wants more, so a report of a
 * 10,000-case run holds one page in memory, and a slow client slows the database reads instead
 * of filling the server's memory. A failure after the first byte cannot become an error
 * response any more: it is logged and the stream is aborted (the client sees a truncated
 * download, never a complete-looking one).
 */
export function textStream(source: AsyncIterable<string>, context: Record<string, unknown> = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const next = await iterator.next();
            if (next.done) return controller.close();
            // Skip empty chunks: an empty enqueue would satisfy the reader without progress.
            if (next.value) return controller.enqueue(encoder.encode(next.value));
          }
        } catch (err) {
          logger.error({ err, ...context }, "streamed download failed");
          controller.error(err);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    // One chunk (a page) read ahead at most.
    { highWaterMark: 1 },
  );
}

/** A streamed (or small, in-memory) file as an attachment response. */
export function downloadResponse(
  file: { body: ReadableStream<Uint8Array> | string | Uint8Array; contentType: string; filename: string },
  headers: Record<string, string> = {},
): Response {
  const body = file.body instanceof Uint8Array ? new Uint8Array(file.body) : file.body;
  return new Response(body, {
    status: 200,
    headers: { "content-type": file.contentType, "content-disposition": `attachment; filename="${file.filename}"`, ...headers },
  });
}
