import { withApi } from "@/lib/api/handler";
import { createShareLink, listShareLinks } from "@/lib/share-links/service";
import { DEFAULT_SHARE_DAYS, shareLinkInput } from "@/lib/share-links/schemas";

/** A read-only link to the comparison, for people without an account; the token is in this answer only. */
export const POST = withApi({
  role: "editor",
  // No body at all: the default expiry.
  body: shareLinkInput.optional(),
  handler: async ({ ctx, params, body }) => ({
    status: 201,
    json: await createShareLink(
      ctx,
      { kind: "comparison", id: params.id! },
      { expiresInDays: body?.expires_in_days ?? DEFAULT_SHARE_DAYS },
    ),
  }),
});

/** The comparison's share links, newest first, with whether each still works. */
export const GET = withApi({
  role: "viewer",
  handler: async ({ ctx, params }) => ({ json: { data: await listShareLinks(ctx, { kind: "comparison", id: params.id! }) } }),
});
