import "server-only";
import { env } from "@/lib/env";
import { checkUrlStatically, type NetworkPolicy } from "./address-policy";
import { BlockedAddressError, createGuardedFetch, type FetchLike } from "./safe-fetch";

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

/**
 * The guard's static rules at save time (an agent's, model configuration's or webhook's URL): the
 * field issue that says why the policy refuses `url`, or null when it may be called.
 */
export function refusedUrlIssue(url: string, path: string): { path: string; message: string } | null {
  try {
    checkUrlStatically(url, networkPolicy());
    return null;
  } catch (err) {
    if (err instanceof BlockedAddressError) return { path, message: err.message };
    throw err;
  }
}

let shared: FetchLike | undefined;

/** The process-wide guarded fetch under the instance policy (one pair of keep-alive agents). */
export function guardedFetch(): FetchLike {
  return (shared ??= createGuardedFetch(networkPolicy()));
}
