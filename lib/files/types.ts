import type { z } from "zod";
import type { FileType } from "@/lib/files/schemas";
import type { processedFileResource } from "@/lib/files/openapi";

/** The execution model's ProcessedFileInput (public JSON shape, on case results and in reports). */
export type ProcessedFileInput = z.output<typeof processedFileResource>;

/** An image ready for a vision model (OpenAI `image_url` data URL, resized to the maximum edge). */
export type ImagePart = { name: string; dataUrl: string; mediaType: string; width: number; height: number };

/** What an HTTP agent receives per file in its request body (`files`). */
export type HttpAgentFile = { name: string; type: FileType; markdown: string; url?: string };
