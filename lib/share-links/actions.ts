"use server";
import { z } from "zod";
import { revalidatePath } from "next/cache";
import { workspaceAction } from "@/lib/actions/safe-action";
import { hasRole } from "@/lib/auth/roles";
import { createShareLink, listShareLinks, revokeShareLink, setSharingEnabled, sharingEnabled } from "./service";
import { shareLinkInput, sharingSettingInput } from "./schemas";

/** The share dialog's and the workspace settings' server actions (the API's routes call the same service). */

const target = z.object({ kind: z.enum(["run", "comparison"]), id: z.string() });

/** What the share dialog shows: whether sharing is on, whether this member may share, and the links. */
export const shareLinksAction = workspaceAction(target, "viewer", async (input, ctx) => ({
  sharingEnabled: await sharingEnabled(ctx.workspaceId),
  canShare: hasRole(ctx.role, "editor"),
  links: await listShareLinks(ctx, input),
}));

export const createShareLinkAction = workspaceAction(target.extend(shareLinkInput.shape), "editor", async (input, ctx) =>
  createShareLink(ctx, { kind: input.kind, id: input.id }, { expiresInDays: input.expires_in_days }),
);

export const revokeShareLinkAction = workspaceAction(z.object({ id: z.string() }), "editor", async ({ id }, ctx) =>
  revokeShareLink(ctx, id),
);

export const setSharingEnabledAction = workspaceAction(sharingSettingInput, "admin", async ({ enabled }, ctx) => {
  const result = await setSharingEnabled(ctx, enabled);
  revalidatePath(`/w/${ctx.workspaceId}/settings`, "layout");
  return result;
});
