"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { fromConversationsInput } from "./schemas";
import { createCasesFromConversations, listDraftSuites } from "./service";

/** The "Make a test case" and bulk dialogs' suite choices. */
export const draftSuitesAction = workspaceAction(z.object({}), "editor", async (_input, ctx) => listDraftSuites(ctx));

/** Bulk: one draft case per selected conversation in the chosen suite, with the report. */
export const draftCasesFromConversationsAction = workspaceAction(
  fromConversationsInput.extend({ suite_id: z.uuid("Choose a suite") }),
  "editor",
  async (input, ctx) => {
    const report = await createCasesFromConversations(ctx, input.suite_id, input.conversation_ids);
    revalidatePath(`/w/${ctx.workspaceId}/suites/${input.suite_id}`);
    return report;
  },
);
