import { withApi } from "@/lib/api/handler";
import { previewFileInput } from "@/lib/files/processing";
import { FILE_PREVIEW_MAX_BODY_BYTES, filePreviewBody } from "@/lib/files/preview";

/** `{file: FileInput}` → the ProcessedFileInput a run would give the agent (errors in `error`, not as a status). */
export const POST = withApi({
  role: "viewer",
  body: filePreviewBody,
  maxBytes: FILE_PREVIEW_MAX_BODY_BYTES,
  handler: async ({ ctx, body, req }) => ({ json: await previewFileInput(ctx, body.file, req.signal) }),
});
