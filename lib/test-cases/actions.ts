"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { workspaceAction } from "@/lib/actions/safe-action";
import { TEST_CASE_STATUSES, bulkStatusInput, bulkTagsInput, reorderInput } from "@/lib/test-cases/schemas";
import {
  bulkSetStatus,
  bulkTags,
  createTestCase,
  deleteTestCase,
  duplicateTestCase,
  getTestCase,
  reorderTestCases,
  restoreTestCase,
  setTestCaseStatus,
  updateTestCase,
} from "@/lib/test-cases/service";
import { exportTestCases } from "@/lib/test-cases/import-export";
import { exportTestCasesAs } from "@/lib/test-cases/export-foreign";

// The action schemas check only the wrapper; the service validates the case itself and reports
// issues relative to the case (`checks.0.threshold`), or `<index>.<field>` for imports.

function revalidateSuite(workspaceId: string, suiteId: string) {
  revalidatePath(`/w/${workspaceId}/suites/${suiteId}`);
}

const byId = z.object({ id: z.uuid("Unknown test case") });
const suiteId = z.uuid("Unknown suite");

export const createTestCaseAction = workspaceAction(
  // `source`: the conversation or case result a drafted case was made from (recorded on the case).
  z.object({ suite_id: suiteId, test_case: z.unknown(), source: z.unknown().optional() }),
  "editor",
  async (input, ctx) => {
    const body = input.source === undefined ? input.test_case : { ...(input.test_case as object), source: input.source };
    const created = await createTestCase(ctx, input.suite_id, body);
    revalidateSuite(ctx.workspaceId, created.suite_id);
    return created;
  },
);

export const updateTestCaseAction = workspaceAction(
  z.object({ id: z.uuid("Unknown test case"), patch: z.unknown() }),
  "editor",
  async (input, ctx) => {
    const updated = await updateTestCase(ctx, input.id, input.patch);
    revalidateSuite(ctx.workspaceId, updated.suite_id);
    return updated;
  },
);

/** `status` is draft/active/archived, or `restore` (archived → active when it can run, else draft). */
export const setTestCaseStatusAction = workspaceAction(
  byId.extend({ status: z.enum([...TEST_CASE_STATUSES, "restore"], { error: "Unknown status" }) }),
  "editor",
  async (input, ctx) => {
    const updated = await setTestCaseStatus(ctx, input.id, input.status);
    revalidateSuite(ctx.workspaceId, updated.suite_id);
    return updated;
  },
);

export const deleteTestCaseAction = workspaceAction(byId, "editor", async (input, ctx) => {
  const existing = await getTestCase(ctx, input.id);
  await deleteTestCase(ctx, input.id);
  revalidateSuite(ctx.workspaceId, existing.suite_id);
  return null;
});

export const restoreTestCaseAction = workspaceAction(byId, "editor", async (input, ctx) => {
  const restored = await restoreTestCase(ctx, input.id);
  revalidateSuite(ctx.workspaceId, restored.suite_id);
  return restored;
});

export const duplicateTestCaseAction = workspaceAction(byId, "editor", async (input, ctx) => {
  const copy = await duplicateTestCase(ctx, input.id);
  revalidateSuite(ctx.workspaceId, copy.suite_id);
  return copy;
});

export const reorderTestCasesAction = workspaceAction(reorderInput.extend({ suite_id: suiteId }), "editor", async (input, ctx) => {
  await reorderTestCases(ctx, input.suite_id, input.ids);
  revalidateSuite(ctx.workspaceId, input.suite_id);
  return null;
});

export const bulkStatusAction = workspaceAction(bulkStatusInput.extend({ suite_id: suiteId }), "editor", async (input, ctx) => {
  const result = await bulkSetStatus(ctx, input.suite_id, input.ids, input.status);
  revalidateSuite(ctx.workspaceId, input.suite_id);
  return result;
});

export const bulkTagsAction = workspaceAction(bulkTagsInput.extend({ suite_id: suiteId }), "editor", async (input, ctx) => {
  const result = await bulkTags(ctx, input.suite_id, input.ids, input.add, input.remove);
  revalidateSuite(ctx.workspaceId, input.suite_id);
  return result;
});

export const exportTestCasesAction = workspaceAction(
  z.object({ suite_id: suiteId, format: z.enum(["yaml", "json", "promptfoo", "deepeval", "langfuse"]).default("yaml") }),
  "viewer",
  // An action returns its result whole: the export streams (the API route sends it as it is read), the button gets the text.
  async (input, ctx) => {
    if (input.format === "yaml" || input.format === "json") {
      const file = await exportTestCases(ctx, input.suite_id, input.format);
      return { ...file, body: await new Response(file.body).text(), not_exported: [] };
    }
    return exportTestCasesAs(ctx, input.suite_id, input.format);
  },
);
