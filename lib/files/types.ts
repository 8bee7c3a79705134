import type { FileInput, FileType } from "@/lib/files/schemas";

/** The execution model's ProcessedFileInput (public JSON shape, on case results and in reports). */
export type ProcessedFileInput = {
  original: FileInput;
  /** The extracted content as markdown ("" only when `error` is set). */
  markdown_content: string;
  /** size_bytes, format, sha256, name; pages/sheets/slides (total and extracted); width/height for images; cache hits. */
  metadata: Record<string, unknown>;
  /** The file store key of a downloaded URL's content (`file:<id>`), null for uploaded files. */
  cached_path: string | null;
  processing_time_ms: number;
  error: string | null;
};

/** An image ready for a vision model (OpenAI `image_url` data URL, resized to the maximum edge). */
export type ImagePart = { name: string; dataUrl: string; mediaType: string; width: number; height: number };

/** What an HTTP agent receives per file in its request body (`files`). */
export type HttpAgentFile = { name: string; type: FileType; markdown: string; url?: string };
