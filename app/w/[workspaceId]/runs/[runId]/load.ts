import "server-only";
import { notFound } from "next/navigation";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { NotFoundError } from "@/lib/errors";
import { getSuite } from "@/lib/suites/service";
import type { RunSuiteInfo } from "@/components/runs/run-view";

/** NotFoundError → the 404 page; everything else propagates to the error boundary. */
export function orNotFound<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
}

/** The run's suite for headers and links; a deleted suite still shows its name. */
export async function suiteInfo(ctx: WorkspaceContext, suiteId: string): Promise<RunSuiteInfo> {
  const suite = await getSuite(ctx, suiteId, { includeDeleted: true }).catch((err: unknown) => {
    if (err instanceof NotFoundError) return null;
    throw err;
  });
  if (!suite) return { id: suiteId, name: "Deleted suite", deleted: true, agentName: null };
  return { id: suite.id, name: suite.name, deleted: suite.deleted_at !== null, agentName: suite.agent_name };
}
