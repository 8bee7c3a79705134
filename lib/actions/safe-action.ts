/**
 * The one wrapper for server actions: `workspaceAction(schema, minRole, fn)` checks the session,
 * the membership and the role, parses the input with the form's zod schema, and returns an
 * `ActionResult` the form shows at its fields. Every lib/<feature>/actions.ts builds on it. Key
 * rule: domain errors reach the user with their message; unexpected ones are logged and shown as
 * a generic message (Next.js redirects pass through).
 */
import "server-only";
import { z } from "zod";
import { DomainError, zodIssues, type IssueList } from "@/lib/errors";
import type { Role, WorkspaceContext } from "@/lib/auth/roles";
import { actionContext } from "@/lib/auth/context";
import { logger } from "@/lib/logger";
import { findInvalidText } from "@/lib/validation/text";
import { withWorkspaceScope } from "@/lib/tenant-scope";

export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: string; issues: IssueList };

/**
 * Server action wrapper: checks the session, the workspace membership and role, parses the
 * input with the same zod schema the form uses, and maps errors to a result the form shows
 * next to its fields. Text PostgreSQL cannot store (a NUL character, a lone surrogate) or too
 * deep nesting anywhere in the input is refused at its field first, as the API does. The action
 * runs in the member's workspace scope (row-level security). Unexpected errors are logged and
 * reported generically.
 */
export function workspaceAction<S extends z.ZodType, R>(
  schema: S,
  minRole: Role,
  fn: (input: z.output<S>, ctx: WorkspaceContext) => Promise<R>,
) {
  return async (workspaceId: string, raw: z.input<S>): Promise<ActionResult<R>> => {
    try {
      const ctx = await actionContext(workspaceId, minRole);
      const invalidText = findInvalidText(raw);
      if (invalidText.length > 0) return { ok: false, error: "Please fix the highlighted fields", issues: invalidText };
      const parsed = schema.safeParse(raw);
      if (!parsed.success) {
        return { ok: false, error: "Please fix the highlighted fields", issues: zodIssues(parsed.error) };
      }
      // Every query of the action is limited to this workspace by PostgreSQL too (lib/tenant-scope.ts).
      return { ok: true, data: await withWorkspaceScope(ctx.workspaceId, () => fn(parsed.data, ctx)) };
    } catch (err) {
      return actionError(err);
    }
  };
}

export function actionError(err: unknown): { ok: false; error: string; issues: IssueList } {
  if (err instanceof DomainError) return { ok: false, error: err.message, issues: err.issues };
  // next/navigation's redirect() throws; let it through.
  if (err && typeof err === "object" && "digest" in err && String((err as { digest: unknown }).digest).startsWith("NEXT_")) {
    throw err;
  }
  logger.error({ err }, "unhandled action error");
  return { ok: false, error: "Something went wrong on our side. Please try again.", issues: [] };
}
