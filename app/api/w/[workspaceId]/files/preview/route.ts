import { withSession } from "@/lib/api/handler";
import { previewFileInput } from "@/lib/files/processing";
import { FILE_PREVIEW_MAX_BODY_BYTES, filePreviewBody } from "@/lib/files/preview";

/** The case form's "what the agent will see": the same contract as POST /api/v1/files/preview. */
export const POST = withSession({
  role: "viewer",
  body: filePreviewBody,
  maxBytes: FILE_PREVIEW_MAX_BODY_BYTES,
  handler: async ({ ctx, body, req }) => ({ json: await previewFileInput(ctx, body.file, req.signal) }),
});
