import { listRoute } from "@/lib/api/routes";
import { workspaceRunListQuery } from "@/lib/runs/schemas";
import { listWorkspaceRuns } from "@/lib/runs/workspace-runs/service";

/** The workspace's runs across its suites, newest first, filtered by suite, status, trigger, kind and a metadata key. */
export const GET = listRoute("viewer", workspaceRunListQuery, (ctx, query) => listWorkspaceRuns(ctx, query));
