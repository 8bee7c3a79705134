// Assertions the suite tests share: the issues a refused write reports, and a refused create
// that leaves no suite behind.
import { expect } from "vitest";
import { db } from "@/lib/db";
import { ValidationError, type IssueList } from "@/lib/errors";
import { createSuite } from "@/lib/suites/service";
import type { WorkspaceContext } from "@/lib/auth/roles";

/** The issues of the error `p` rejects with, which must be a `type` (a ValidationError unless said). */
export async function issuesOf(p: Promise<unknown>, type: new (...a: never[]) => Error = ValidationError): Promise<IssueList> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  return (err as { issues: IssueList }).issues;
}

export const paths = (issues: IssueList) => issues.map((i) => i.path);

/** Creating a suite of `agentId` with `fields` is refused with an issue at `path`, and writes nothing. */
export async function expectCreateRefused(ctx: WorkspaceContext, agentId: string, fields: Record<string, unknown>, path: string) {
  const issues = await issuesOf(createSuite(ctx, { agent_id: agentId, name: "S", ...fields }));
  expect(paths(issues)).toContain(path);
  expect(await db.suite.count({ where: { agentId } })).toBe(0);
}
