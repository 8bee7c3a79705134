/**
 * File names from outside (an upload's filename, a URL's last path segment, a zip entry) made safe
 * to store and to show: no directories, and no control or line-breaking characters. A NUL cannot
 * be stored in PostgreSQL text, and a line break in a name would let it write its own lines into
 * what the agent reads (the `Attached file` layout, an image's description).
 */

/** C0 and C1 control characters (NUL, newline, carriage return, escape …) and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex -- stripping control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

export function cleanFileName(raw: string, fallback = "upload"): string {
  const base = raw.split(/[/\\]/).pop() ?? "";
  const cleaned = base.replace(UNSAFE, "").trim();
  return (cleaned || fallback).slice(0, 255);
}
