"use server";
import { z } from "zod";
import { revalidatePath } from "next/cache";
import { workspaceAction } from "@/lib/actions/safe-action";
import { seedDemo } from "@/lib/demo/seed";

/**
 * "Load the demo suite" on an empty workspace (admins: it creates a model configuration); also
 * starts the demo's first run, which the button then opens.
 */
export const loadDemoAction = workspaceAction(z.object({}), "admin", async (_input, ctx) => {
  const result = await seedDemo(ctx);
  revalidatePath(`/w/${ctx.workspaceId}/suites`);
  return result;
});
