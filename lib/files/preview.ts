/**
 * "What the agent will see" for one file (POST /api/v1/files/preview and the case form's
 * session twin): the body schema and the answer's shape. The file goes through the same
 * processing and caches as a run (./processing.ts); an image answers its size, and its data URL
 * only when it is small.
 */
import { z } from "zod";
import { fileInputSchema } from "@/lib/files/schemas";
import type { ImagePart, ProcessedFileInput } from "@/lib/files/types";
import type { filePreviewImage, filePreviewResource } from "@/lib/files/openapi";

export const filePreviewBody = z.object({ file: fileInputSchema });
export type FilePreviewBody = z.output<typeof filePreviewBody>;

/** A preview's body is one FileInput: anything near this size is not one. */
export const FILE_PREVIEW_MAX_BODY_BYTES = 16 * 1024;
/** Data URLs up to this many characters are included in a preview (a thumbnail); larger ones only by size. */
export const PREVIEW_DATA_URL_MAX_CHARS = 100_000;

/** What a vision model receives for an image: its size as sent, and the data URL itself when it is small. */
export type FilePreviewImage = z.output<typeof filePreviewImage>;

/** The execution model's ProcessedFileInput plus, for images, what a vision model receives. */
export type FilePreviewDto = z.output<typeof filePreviewResource>;

export function toFilePreview(processed: ProcessedFileInput, image: ImagePart | undefined): FilePreviewDto {
  return {
    ...processed,
    image: image
      ? {
          media_type: image.mediaType,
          width: image.width,
          height: image.height,
          data_url_chars: image.dataUrl.length,
          data_url: image.dataUrl.length <= PREVIEW_DATA_URL_MAX_CHARS ? image.dataUrl : null,
        }
      : null,
  };
}
