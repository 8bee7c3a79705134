/**
 * What an extractor takes and returns, declared apart from ./index.ts so the per-format modules
 * it dispatches to need not import it back.
 */
import type { FileType } from "@/lib/files/schemas";
import type { ImagePart } from "@/lib/files/types";

export type ExtractOptions = {
  type: FileType;
  /** The file's display name (used in messages and image parts). */
  name: string;
  pages?: number[] | null;
  sheet?: string | null;
  range?: string | null;
  /** Images: the longest edge after resizing (default 1568 px). */
  maxImageEdge?: number;
  /** Spreadsheets and CSV: cells one sheet, range or table may span (default DEFAULT_MAX_CELLS, ./limits.ts). */
  maxCells?: number;
};

export type Extracted = {
  markdown: string;
  metadata: Record<string, unknown>;
  /** Images only: the resized image for vision models. */
  image?: ImagePart;
};
