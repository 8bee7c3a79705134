import { withApi } from "@/lib/api/handler";
import { paginationQuery } from "@/lib/api/query";
import { listFiles, uploadFile } from "@/lib/files/service";
import { readUpload } from "@/lib/files/upload";

/** The workspace's stored files, newest first. */
export const GET = withApi({
  role: "viewer",
  query: paginationQuery,
  handler: async ({ ctx, query }) => ({ json: await listFiles(ctx, query) }),
});

/** multipart/form-data with the field `file` (at most 25 MB); the same content again returns the existing record (201 too). */
export const POST = withApi({
  role: "editor",
  handler: async ({ ctx, req }) => {
    const { file } = await uploadFile(ctx, await readUpload(req));
    return { status: 201, json: file };
  },
});
