/**
 * Images with sharp (libvips): resized to fit the vision model's preferred maximum edge and sent as
 * a data URL. PNG stays PNG and JPEG stays JPEG (no new compression artefacts); GIF and WebP become
 * PNG, which every vision API accepts (an animated GIF sends its first frame).
 *
 * Pixels are bounded by content: a 250 KB PNG can declare 16,000 × 16,000 pixels and decode to a
 * gigabyte, so the header's size is checked against MAX_IMAGE_PIXELS before decoding, and libvips
 * is told the same limit (`limitInputPixels`) in case a header understates it.
 */
import sharp from "sharp";
import { FileProcessingError } from "./errors";
import type { Extracted, ExtractOptions } from "./types";
import { formatCount, MAX_IMAGE_PIXELS } from "./limits";

// libvips' operation cache keeps decoded images around for reuse; Assay caches results itself.
sharp.cache(false);

/** Larger images are downscaled by the providers anyway (Anthropic documents 1568 px); sending less is cheaper. */
export const DEFAULT_MAX_IMAGE_EDGE = 1568;
/** The formats Assay accepts as images (the same list sniffing maps to the image kind). */
const READABLE = new Set(["png", "jpeg", "gif", "webp"]);

export async function extractImage(bytes: Uint8Array, opts: ExtractOptions): Promise<Extracted> {
  const maxEdge = opts.maxImageEdge ?? DEFAULT_MAX_IMAGE_EDGE;
  // The header alone (no pixels are decoded here); libvips' own limit would refuse it without saying why.
  const meta = await sharp(bytes, { failOn: "error", limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw new FileProcessingError(`${opts.name} is not a readable image: its content could not be decoded`);
    });
  // An animated image decodes its first frame (pageHeight tall); height is then every frame's together.
  const frameHeight = meta.pageHeight ?? meta.height;
  const pixels = meta.width * frameHeight;
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new FileProcessingError(
      `${opts.name} is refused: it is ${formatCount(meta.width)}×${formatCount(frameHeight)} pixels ` +
        `(${formatCount(Math.round(pixels / 1e6))} megapixels), more than the ${MAX_IMAGE_PIXELS / 1e6} megapixels Assay decodes; scale it down first`,
    );
  }
  if (!READABLE.has(meta.format)) {
    throw new FileProcessingError(
      `${opts.name} is not a supported image: ${meta.format.toUpperCase()} (Assay reads PNG, JPEG, GIF and WebP)`,
    );
  }
  const outFormat = meta.format === "jpeg" ? "jpeg" : "png";
  // autoOrient applies the EXIF rotation so a phone photo is sent the way it is displayed.
  const input = sharp(bytes, { failOn: "error", limitInputPixels: MAX_IMAGE_PIXELS });
  const pipeline = input.autoOrient().resize({ width: maxEdge, height: maxEdge, fit: "inside", withoutEnlargement: true });
  const { data, info } = await (outFormat === "jpeg" ? pipeline.jpeg({ quality: 90 }) : pipeline.png())
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw new FileProcessingError(`${opts.name} is not a readable image: its pixels could not be decoded`);
    });
  const mediaType = `image/${outFormat}`;
  const { width, height } = meta.autoOrient;
  return {
    markdown: `[Image: ${opts.name}, ${width}×${height} ${meta.format.toUpperCase()}, sent to the model as ${info.width}×${info.height}]`,
    metadata: {
      size_bytes: bytes.byteLength,
      format: meta.format,
      width,
      height,
      sent_width: info.width,
      sent_height: info.height,
      sent_bytes: data.byteLength,
    },
    image: {
      name: opts.name,
      dataUrl: `data:${mediaType};base64,${data.toString("base64")}`,
      mediaType,
      width: info.width,
      height: info.height,
    },
  };
}
