/**
 * Wire timing of a guarded fetch's responses: when the request went out and when its last byte
 * came in, stamped in node:http's own socket callbacks, for latencies that leave out queueing,
 * parsing and our own code.
 */
import "server-only";
import http from "node:http";

/**
 * When (performance.now()) the request was handed to the socket and when its response's last
 * byte was read from the socket. Both are stamped in node:http's own callbacks for the socket
 * (no stream hop, no promise, no timer in between), so neither queueing for a connection, nor
 * building the request, nor decoding or parsing the body is inside. With redirects, `sentAt` is
 * the first hop's and `lastByteAt` the final response's. null until it happens.
 */
export type WireTiming = { sentAt: number | null; lastByteAt: number | null };

export const wireTimings = new WeakMap<Response, WireTiming>();

/**
 * The wire timing of a response from a guarded fetch (undefined for any other Response).
 * `lastByteAt` is set once the whole body has arrived, i.e. by the time reading it resolves.
 */
export function wireTiming(response: Response): WireTiming | undefined {
  return wireTimings.get(response);
}

/**
 * Stamps `timing.lastByteAt` when the response's last byte is parsed: node:http sets
 * `res.complete` inside its socket 'data' handler, so a listener added after it on the same
 * socket (or, for a body that came with the headers, a tick after the 'response' event) sees it
 * in the same turn of the event loop the bytes were read in, whoever reads the body and when.
 */
export function stampLastByte(res: http.IncomingMessage, timing: WireTiming): void {
  const socket = res.socket;
  const check = () => {
    if (!res.complete) return;
    timing.lastByteAt ??= performance.now();
    stop();
  };
  const onEnd = () => {
    // A body delimited by the connection closing: its end is the last byte.
    timing.lastByteAt ??= performance.now();
    stop();
  };
  const stop = () => {
    socket?.off("data", check);
    res.off("end", onEnd);
    res.off("close", stop);
  };
  socket?.on("data", check);
  res.once("end", onEnd);
  res.once("close", stop);
  process.nextTick(check);
}
