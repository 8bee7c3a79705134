import "server-only";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { scopedLoader } from "@/lib/tenant-scope";
import { getRetentionSettings, isInstanceAdmin, listCleanupRecords } from "./service";

/** Settings → Retention: the instance settings with their sources and the latest cleanups (instance admins only). */
async function loadRetentionPageUnscoped(ctx: WorkspaceContext) {
  if (!(await isInstanceAdmin(ctx))) return { allowed: false as const };
  const [settings, records] = await Promise.all([getRetentionSettings(), listCleanupRecords(10)]);
  return { allowed: true as const, settings, records };
}

export const loadRetentionPage = scopedLoader(loadRetentionPageUnscoped);
