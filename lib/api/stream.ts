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

/** Marks where the results array goes in a streamed document's envelope. */
const RESULTS_SLOT = "\u0000results\u0000";

/**
 * A JSON report with one long `results` array, pretty-printed exactly as `JSON.stringify(document, null, 2)`
 * would, but written page by page: the envelope is stringified around a placeholder in the place of its
 * `results` key, then each row's item follows as an array item.
 */
export async function* prettyJsonWithResults<T>(
  envelope: { results: unknown } & Record<string, unknown>,
  pages: AsyncIterable<T[]>,
  item: (row: T) => unknown,
): AsyncGenerator<string> {
  const text = JSON.stringify({ ...envelope, results: RESULTS_SLOT }, null, 2);
  const slot = `"results": ${JSON.stringify(RESULTS_SLOT)}`;
  const at = text.indexOf(slot);
  yield `${text.slice(0, at)}"results": [`;
  let written = 0;
  for await (const page of pages) {
    let chunk = "";
    for (const row of page) {
      // An array item two levels deep: "\n    " before it, every line of it indented by four spaces.
      chunk += `${written++ > 0 ? "," : ""}\n    ${JSON.stringify(item(row), null, 2).replace(/\n/g, "\n    ")}`;
    }
    yield chunk;
  }
  yield `${written > 0 ? "\n  ]" : "]"}${text.slice(at + slot.length)}`;
}
