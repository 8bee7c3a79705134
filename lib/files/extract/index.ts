/**
 * Content extraction per spec 000 file type: bytes in, markdown (plus metadata, and the resized
 * image for images) out. Each format uses a library made for it; see ../README.md.
 * OWNER: helper A replaces this stub with the real extractors.
 */
import type { FileType } from "@/lib/files/schemas";
import type { ImagePart } from "@/lib/files/types";

/** Bumped whenever extraction output changes, so cached results from older code are not reused. */
export const EXTRACTOR_VERSION = "1";

export type ExtractOptions = {
  type: FileType;
  /** The file's display name (used in messages and image parts). */
  name: string;
  pages?: number[] | null;
  sheet?: string | null;
  range?: string | null;
  /** Images: the longest edge after resizing (default 1568 px). */
  maxImageEdge?: number;
};

export type Extracted = {
  markdown: string;
  metadata: Record<string, unknown>;
  /** Images only: the resized image for vision models. */
  image?: ImagePart;
};

/** A file that cannot be read as its type (corrupt, encrypted, a page or sheet that does not exist). */
export class FileProcessingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FileProcessingError";
  }
}

export async function extractFile(bytes: Uint8Array, opts: ExtractOptions): Promise<Extracted> {
  if (opts.type === "text" || opts.type === "csv") {
    const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
    return { markdown: text, metadata: { size_bytes: bytes.byteLength, format: opts.type } };
  }
  throw new FileProcessingError(`Extraction of ${opts.type} files is not available yet`);
}
