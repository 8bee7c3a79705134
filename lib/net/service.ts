import "server-only";
import { env } from "@/lib/env";
import type { NetworkPolicy } from "./address-policy";
import { createGuardedFetch, type FetchLike } from "./safe-fetch";

/**
 * The instance's outbound network policy. It is decided by the instance's environment only
 * (ASSAY_ALLOW_PRIVATE_NETWORKS, ASSAY_ALLOW_LOOPBACK, ASSAY_MAX_RESPONSE_BYTES): no workspace
 * setting can widen it, and link-local/metadata addresses are refused whatever it says.
 */
export function networkPolicy(): NetworkPolicy {
  return {
    allowPrivateNetworks: env.ASSAY_ALLOW_PRIVATE_NETWORKS,
    allowLoopback: env.ASSAY_ALLOW_LOOPBACK,
    maxResponseBytes: env.ASSAY_MAX_RESPONSE_BYTES,
  };
}

let shared: FetchLike | undefined;

/** The process-wide guarded fetch under the instance policy (one pair of keep-alive agents). */
export function guardedFetch(): FetchLike {
  return (shared ??= createGuardedFetch(networkPolicy()));
}
