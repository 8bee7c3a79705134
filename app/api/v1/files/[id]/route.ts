import { withApi } from "@/lib/api/handler";
import { deleteFile, getFile } from "@/lib/files/service";

/** Metadata and the live test cases that reference the file. */
export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: await getFile(ctx, params.id!) }),
});

/** 409 while a live test case references the file; deletes the record and its bytes. */
export const DELETE = withApi({
  role: "editor",
  handler: async ({ ctx, params }) => {
    await deleteFile(ctx, params.id!);
    return { status: 204, json: null };
  },
});
