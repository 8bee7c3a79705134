import "server-only";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import type { NetworkPolicy } from "./address-policy";

/**
 * The outbound network policy of a workspace: private networks (link-local, cloud metadata)
 * are reachable only when the workspace setting or ASSAY_ALLOW_PRIVATE_NETWORKS allows them.
 */
export async function networkPolicy(workspaceId: string): Promise<NetworkPolicy> {
  if (env.ASSAY_ALLOW_PRIVATE_NETWORKS) return { allowPrivateNetworks: true };
  const ws = await db.workspace.findUnique({ where: { id: workspaceId }, select: { allowPrivateNetworks: true } });
  return { allowPrivateNetworks: ws?.allowPrivateNetworks ?? false };
}
