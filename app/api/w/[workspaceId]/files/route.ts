import { withSession } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/query";
import { listFiles, uploadFile } from "@/lib/files/service";
import { readUpload } from "@/lib/files/upload";

/** The case form's file picker: the workspace's stored files, newest first. */
export const GET = withSession({
  role: "viewer",
  query: paginationQuery,
  handler: async ({ ctx, query }) => ({ json: await listFiles(ctx, query) }),
});

/** The case form's upload (drag and drop): the same contract as POST /api/v1/files. */
export const POST = withSession({
  role: "editor",
  handler: async ({ ctx, req }) => {
    const { file } = await uploadFile(ctx, await readUpload(req));
    return { status: 201, json: file };
  },
});
