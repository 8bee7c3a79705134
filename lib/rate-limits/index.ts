/**
 * Provider rate limits, paced across every process (./README.md): `budgetFor` gives the budget an
 * endpoint draws on, one per (base URL, API key, model) or HTTP agent URL in this process, so the
 * agent, the simulated user and the judge share one when they call the same endpoint with the
 * same key.
 */
import "server-only";
import { LRUCache } from "lru-cache";
import { createHash, randomUUID } from "node:crypto";
import os from "node:os";
import { env } from "@/lib/env";
import { displayUrl } from "@/lib/url-secrets";
import { SharedBudget } from "./budget";
import type { DeclaredLimits } from "./store";

export { withRateLimitWaits, type RateLimitWaitReporter } from "./wait-context";
export type { DeclaredLimits } from "./store";

export const NO_LIMITS: DeclaredLimits = { rpm: null, tpm: null, maxConcurrency: null };

type Registry = { budgets: LRUCache<string, SharedBudget>; owner: string };
const globalKey = Symbol.for("assay.rateLimits.budgets");
const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
// Process-wide (and hot-reload safe): every run of this process shares an endpoint's queue.
const registry: Registry = (holder[globalKey] ??= {
  budgets: new LRUCache({ max: 1_000 }),
  owner: `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
});

/** The budget of a model endpoint: the provider limits a key per model. */
export function modelBudget(endpoint: { baseUrl: string; apiKey: string | null; model: string }, limits: DeclaredLimits): SharedBudget {
  const key = hash(["model", endpoint.baseUrl.replace(/\/+$/, ""), endpoint.apiKey ?? "", endpoint.model]);
  return budgetFor(key, `${displayUrl(endpoint.baseUrl)} ${endpoint.model}`, limits);
}

/** The budget of an HTTP agent: its URL (query included: it may select a tenant) and headers. */
export function httpAgentBudget(agent: { url: string; headers: Record<string, string> }, limits: DeclaredLimits): SharedBudget {
  const headers = Object.entries(agent.headers).sort(([a], [b]) => a.localeCompare(b));
  const key = hash(["http", agent.url, JSON.stringify(headers)]);
  return budgetFor(key, displayUrl(agent.url), limits);
}

function budgetFor(key: string, label: string, limits: DeclaredLimits): SharedBudget {
  let budget = registry.budgets.get(key);
  if (!budget) {
    budget = new SharedBudget({ key, label, limits }, { owner: registry.owner, maxWaitMs: env.ASSAY_RATE_LIMIT_MAX_WAIT_S * 1000 });
    registry.budgets.set(key, budget);
  } else {
    budget.declare(limits);
  }
  return budget;
}

/** Forgets every budget of this process (tests). */
export function resetBudgets(): void {
  registry.budgets.clear();
}

function hash(parts: string[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex");
}
