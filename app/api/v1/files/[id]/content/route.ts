import { withApi } from "@/lib/api/handler";
import { downloadHeaders } from "@/lib/files/dto";
import { getFileContent } from "@/lib/files/service";

/** The file's bytes as an attachment, typed as sniffed. */
export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => {
    const { file, bytes } = await getFileContent(ctx, params.id!);
    return new Response(new Uint8Array(bytes), { status: 200, headers: downloadHeaders(file) });
  },
});
