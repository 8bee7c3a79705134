"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { createReviewItems, labelReviewItem, resolveReviewItem, updateReviewItem } from "./service";
import { createReviewItemsInput, labelInput, resolveInput, updateReviewItemInput } from "./schemas";

/**
 * Server actions of human review: send results to review (the case view, the run page's bulk
 * bar), label, resolve a conflict, assign. Each revalidates the workspace layout, whose nav shows
 * the count of items waiting for the member.
 */

const itemId = z.object({ id: z.uuid("Unknown review item") });

const revalidateWorkspace = (workspaceId: string) => revalidatePath(`/w/${workspaceId}`, "layout");

export const sendToReviewAction = workspaceAction(createReviewItemsInput, "editor", async (input, ctx) => {
  const created = await createReviewItems(ctx, input);
  revalidateWorkspace(ctx.workspaceId);
  return created;
});

export const labelReviewItemAction = workspaceAction(itemId.extend(labelInput.shape), "editor", async ({ id, ...label }, ctx) => {
  const item = await labelReviewItem(ctx, id, label);
  revalidateWorkspace(ctx.workspaceId);
  return item;
});

export const resolveReviewItemAction = workspaceAction(itemId.extend(resolveInput.shape), "admin", async ({ id, ...input }, ctx) => {
  const item = await resolveReviewItem(ctx, id, input);
  revalidateWorkspace(ctx.workspaceId);
  return item;
});

export const assignReviewItemAction = workspaceAction(
  itemId.extend(updateReviewItemInput.shape),
  "editor",
  async ({ id, ...input }, ctx) => {
    const item = await updateReviewItem(ctx, id, input);
    revalidateWorkspace(ctx.workspaceId);
    return item;
  },
);
