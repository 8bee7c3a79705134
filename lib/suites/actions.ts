"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { suiteInput } from "./schemas";
import { createSuite, deleteSuite, restoreSuite, updateSuite } from "./service";

const suitesPath = (workspaceId: string) => `/w/${workspaceId}/suites`;
const idInput = z.object({ id: z.uuid("Unknown suite") });

/** Creates a suite; the service re-checks agent, judge and variables against the workspace. */
export const createSuiteAction = workspaceAction(suiteInput, "editor", async (input, ctx) => {
  const suite = await createSuite(ctx, input);
  revalidatePath(suitesPath(ctx.workspaceId), "layout");
  return suite;
});

/** `patch` is validated by the service (merged over the stored suite), so issue paths are plain field names. */
export const updateSuiteAction = workspaceAction(
  idInput.extend({ patch: z.record(z.string(), z.unknown()) }),
  "editor",
  async ({ id, patch }, ctx) => {
    const suite = await updateSuite(ctx, id, patch);
    revalidatePath(suitesPath(ctx.workspaceId), "layout");
    return suite;
  },
);

export const deleteSuiteAction = workspaceAction(idInput, "editor", async ({ id }, ctx) => {
  await deleteSuite(ctx, id);
  revalidatePath(suitesPath(ctx.workspaceId), "layout");
  return { id };
});

export const restoreSuiteAction = workspaceAction(idInput, "editor", async ({ id }, ctx) => {
  const suite = await restoreSuite(ctx, id);
  revalidatePath(suitesPath(ctx.workspaceId), "layout");
  return suite;
});
