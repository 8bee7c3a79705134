/**
 * What one file may make an extractor build, by content: cells of a sheet or CSV and pixels of an
 * image. The caps are checked before the work they bound (a sheet's area before its cells are
 * read, an image's header before its pixels are decoded), so a file over a cap fails in
 * milliseconds with a message that says what to choose instead. Archives are bounded by
 * ./zip.ts; time and memory of any extraction by the worker pool (../file-pool.ts).
 */

/** Cells one sheet (or range) or one CSV may have, empty ones between content included (ASSAY_FILE_MAX_CELLS). */
export const DEFAULT_MAX_CELLS = 200_000;
/** Pixels an image may decode to (libvips' own default, ~268 MP, lets a 250 KB PNG decode 1 GB). */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** "1,234,567" */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}
