/**
 * What a run's cases share, loaded once per run by the case runner (./case-runner.ts): the
 * agent, judge, simulator and metric models from the run's snapshots with their keys read now
 * (never snapshotted), one bounded LLM call cache, and the chat agent's connections opened
 * before the first wave. A resource that is gone (an agent or a model configuration deleted)
 * fails the load with a domain error, which the runner turns into a run error.
 */
import "server-only";
import { httpAgentBudget, modelBudget, NO_LIMITS } from "@/lib/rate-limits";
import { DomainError, NotFoundError } from "@/lib/errors";
import { LlmCallCache, LlmClient, endpointLimiter, type CallRecord, type Endpoint } from "@/lib/llm";
import type { RetryPolicy } from "@/lib/llm/retry";
import { substituteVariables, type AgentRuntime, type AgentTool } from "@/lib/conversation";
import { db } from "@/lib/db";
import { MODEL_VARIABLE } from "@/lib/runs/prepare";
import { metricConfigListSchema, type MetricConfig } from "@/lib/evaluation";
import { resolveModelEndpoint } from "@/lib/model-configs/service";
import { resolveAgentForRun } from "@/lib/agents/service";
import { demoFetch, isDemoUrl } from "@/lib/demo/model";
import { type RunContext } from "@/lib/runs/execution-types";
import { pricesOf, type Prices } from "@/lib/runs/cost";

/** Something the run needs is gone for good (a deleted agent or model configuration). */
class RunSetupError extends DomainError {}

export type ModelSnapshot = {
  id: string;
  name: string;
  base_url: string;
  model: string;
  embedding_model: string | null;
  temperature: number | null;
  max_tokens: number | null;
  /** Absent in snapshots taken before file inputs (the execution model): not vision-capable. */
  supports_vision?: boolean;
  /** USD per million tokens at run start (absent in snapshots taken before costs: no cost). */
  input_price_per_mtok?: number | null;
  output_price_per_mtok?: number | null;
};
export type AgentSnapshot = {
  id: string;
  name?: string;
  kind: "chat" | "http";
  /**
   * Comparison arms: explicit settings that win over every variable (Temperature, MaxTokens,
   * AIConfiguration: `model_config_id` is set when the arm chose its model configuration) and the
   * model's defaults.
   */
  overrides?: { temperature?: number | null; max_tokens?: number | null; model_config_id?: string | null } | null;
  /** Comparisons: the A/B engine's RetryPolicy for the agent calls (absent: Assay's default policy). */
  retry_policy?: { max_attempts: number; initial_delay_ms: number; backoff_factor: number; timeout_ms: number } | null;
  system_prompt: string | null;
  tools: AgentTool[];
  model_config: ModelSnapshot | null;
  http: { url: string; header_names: string[]; timeout_ms: number } | null;
};
export type EvalSnapshot = {
  judge_model_config: ModelSnapshot | null;
  simulator_model_config: ModelSnapshot | null;
  metrics: unknown;
  max_turns_cap: number;
};

/** What a run needs for all its cases: resolved endpoints (keys decrypted once) and a call cache. */
export type RunResources = {
  agent: AgentRuntime;
  /** The arm's explicit settings (win over variables). */
  overrides: AgentSnapshot["overrides"];
  /** The model configuration name the run's snapshot used (AIConfiguration values that name it need no lookup). */
  modelName: string | null;
  /** Endpoints of other model configurations named by cases' AIConfiguration values. */
  modelsByName: Map<string, Promise<NamedModel>>;
  agentRetry: Partial<RetryPolicy> | undefined;
  judge: LlmClientFactory | null;
  simulator: LlmClientFactory | null;
  metrics: MetricConfig[];
  safetyCap: number;
  variables: Record<string, unknown>;
  metricModels: Map<string, Promise<LlmClientFactory>>;
  workspaceId: string;
  /** The snapshotted prices by model configuration id (agent, judge, simulator): what a call's cost is computed at (./cost.ts). */
  prices: Map<string, Prices>;
  /** The judge's and the simulator's model configuration ids: a part with no calls is free only when its model has prices. */
  judgeModelId: string | null;
  simulatorModelId: string | null;
};
export type LlmClientFactory = (onRecord?: (r: CallRecord) => void) => LlmClient;
type NamedModel = { endpoint: Endpoint; supportsVision: boolean };

export type CaseRunnerOptions = {
  /**
   * Open the chat agent's keep-alive connections (up to the run's concurrency) when a run's
   * resources load, before its first wave (LlmClient.preconnect). The worker turns it on; off by
   * default, so tests that count a fake server's requests see only the calls themselves.
   */
  preconnect?: boolean;
};

/** One LlmClient per call site binds the case's record sink; the run's cache is shared. */
export function clientFactory(endpoint: Endpoint, cache: LlmCallCache): LlmClientFactory {
  const fetch = isDemoUrl(endpoint.baseUrl) ? demoFetch : undefined;
  return (onRecord) => new LlmClient(endpoint, { cache, onRecord, ...(fetch ? { fetch } : {}) });
}

export function agentClient(endpoint: Endpoint, retryPolicy: Partial<RetryPolicy> | undefined): LlmClient {
  // Agent calls are never cached: each case must really ask the agent.
  const fetch = isDemoUrl(endpoint.baseUrl) ? demoFetch : undefined;
  return new LlmClient(endpoint, { ...(fetch ? { fetch } : {}), ...(retryPolicy ? { retryPolicy } : {}) });
}

async function endpointFor(workspaceId: string, snap: ModelSnapshot, role: string): Promise<Endpoint> {
  // The snapshot fixes model and parameters as they were when the run started; the key is read now (it is never snapshotted).
  const current = await resolveModelEndpoint(workspaceId, snap.id).catch((err: unknown) => {
    if (err instanceof NotFoundError) throw new RunSetupError(`The ${role} model configuration "${snap.name}" was deleted`);
    throw err;
  });
  return {
    id: snap.id,
    baseUrl: snap.base_url,
    apiKey: current.apiKey,
    model: snap.model,
    embeddingModel: snap.embedding_model,
    temperature: snap.temperature,
    maxTokens: snap.max_tokens,
    // Limits are the provider's, not the run's: read now, like the key.
    budget: modelBudget({ baseUrl: snap.base_url, apiKey: current.apiKey, model: snap.model }, current.limits ?? NO_LIMITS),
  };
}

/** Prices of the snapshotted model configurations that have both, by id. */
function snapshotPrices(snapshots: (ModelSnapshot | null | undefined)[]): Map<string, Prices> {
  const prices = new Map<string, Prices>();
  for (const snap of snapshots) {
    const p = snap && pricesOf(snap);
    if (snap && p) prices.set(snap.id, p);
  }
  return prices;
}

export async function metricModel(res: RunResources, modelConfigId: string): Promise<LlmClientFactory> {
  let m = res.metricModels.get(modelConfigId);
  if (!m) {
    m = resolveModelEndpoint(res.workspaceId, modelConfigId).then((e) => clientFactory({ id: modelConfigId, ...e }, new LlmCallCache()));
    res.metricModels.set(modelConfigId, m);
  }
  return m;
}

/**
 * The agent as this case runs it: the run's, with the case's Temperature/MaxTokens and, when the
 * case's AIConfiguration names another model configuration of the workspace, that
 * configuration's endpoint (the variables model's effects per case). An arm's explicit settings win over the
 * variables: its model configuration is never switched, its temperature and max tokens are sent.
 */
export async function agentForCase(res: RunResources, values: Record<string, unknown>): Promise<AgentRuntime> {
  const agent = res.agent;
  if (agent.kind !== "chat") return agent;
  let endpoint = agent.endpoint;
  let vision = { supportsVision: agent.supportsVision, modelConfigName: agent.modelConfigName };
  const name = values[MODEL_VARIABLE];
  if (typeof name === "string" && name !== "" && name !== res.modelName && !res.overrides?.model_config_id) {
    let pending = res.modelsByName.get(name);
    if (!pending) {
      pending = endpointByName(res.workspaceId, name);
      pending.catch(() => res.modelsByName.delete(name));
      res.modelsByName.set(name, pending);
    }
    const named = await pending;
    endpoint = named.endpoint;
    vision = { supportsVision: named.supportsVision, modelConfigName: name };
  }
  return {
    ...agent,
    ...vision,
    endpoint,
    temperature:
      res.overrides?.temperature ??
      numberVariable(values, "Temperature", "temperature") ??
      (endpoint === agent.endpoint ? agent.temperature : null),
    maxTokens:
      res.overrides?.max_tokens ??
      numberVariable(values, "MaxTokens", "max_tokens") ??
      (endpoint === agent.endpoint ? agent.maxTokens : null),
  };
}

async function endpointByName(workspaceId: string, name: string): Promise<NamedModel> {
  const model = await db.modelConfig.findFirst({ where: { workspaceId, name }, select: { id: true, supportsVision: true } });
  if (!model) throw new RunSetupError(`No model configuration named "${name}" (the case's ${MODEL_VARIABLE})`);
  const { limits, ...current } = await resolveModelEndpoint(workspaceId, model.id);
  const budget = modelBudget(current, limits ?? NO_LIMITS);
  return { endpoint: { id: model.id, ...current, budget }, supportsVision: model.supportsVision };
}

/** `{{Name}}` placeholders in every string of a JSON value (user context, expected outcomes). */
export function substituteDeep<T>(value: T, variables: Record<string, unknown>): T {
  if (typeof value === "string") return substituteVariables(value, variables) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => substituteDeep(v, variables)) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substituteDeep(v, variables)])) as T;
  }
  return value;
}

function numberVariable(values: Record<string, unknown>, ...names: string[]): number | null {
  for (const n of names) {
    const v = values[n];
    if (typeof v === "number" && Number.isFinite(v)) return v;
  }
  return null;
}

export async function loadResources(run: RunContext, opts: CaseRunnerOptions): Promise<RunResources> {
  const agentSnap = run.agentSnapshot as AgentSnapshot;
  const evalSnap = run.evalSnapshot as EvalSnapshot;
  const variables = ((run.resolvedVariables as { values?: Record<string, unknown> } | null)?.values ?? {}) as Record<string, unknown>;
  const cache = new LlmCallCache();

  let agent: AgentRuntime;
  if (agentSnap.kind === "chat") {
    if (!agentSnap.model_config) throw new Error("The agent had no model configuration when the run started");
    agent = {
      kind: "chat",
      endpoint: await endpointFor(run.workspaceId, agentSnap.model_config, "agent's"),
      systemPrompt: agentSnap.system_prompt,
      tools: agentSnap.tools ?? [],
      temperature: agentSnap.overrides?.temperature ?? numberVariable(variables, "Temperature", "temperature"),
      maxTokens: agentSnap.overrides?.max_tokens ?? numberVariable(variables, "MaxTokens", "max_tokens"),
      supportsVision: agentSnap.model_config.supports_vision === true,
      modelConfigName: agentSnap.model_config.name,
    };
    if (opts.preconnect && !isDemoUrl(agent.endpoint.baseUrl)) {
      await agentClient(agent.endpoint, undefined).preconnect(Math.min(run.concurrency, endpointLimiter(agent.endpoint.id).limit));
    }
  } else {
    if (!agentSnap.http) throw new Error("The HTTP agent had no URL when the run started");
    const current = await resolveAgentForRun(run.workspaceId, agentSnap.id).catch((err: unknown) => {
      if (err instanceof NotFoundError) throw new RunSetupError(`The agent "${agentSnap.name ?? agentSnap.id}" was deleted`);
      throw err;
    });
    const headers = current.http?.headers ?? {};
    const limits = current.http
      ? { rpm: current.http.rpm, tpm: current.http.tpm, maxConcurrency: current.http.max_concurrency }
      : NO_LIMITS;
    agent = {
      kind: "http",
      url: agentSnap.http.url,
      headers,
      timeoutMs: agentSnap.http.timeout_ms,
      budget: httpAgentBudget({ url: agentSnap.http.url, headers }, limits),
    };
  }
  const judgeSnap = evalSnap.judge_model_config;
  const simSnap = evalSnap.simulator_model_config ?? judgeSnap;
  const judgeEndpoint = judgeSnap ? await endpointFor(run.workspaceId, judgeSnap, "judge") : null;
  const simEndpoint = simSnap
    ? simSnap.id === judgeSnap?.id
      ? judgeEndpoint
      : await endpointFor(run.workspaceId, simSnap, "simulator")
    : null;
  const metrics = metricConfigListSchema.safeParse(evalSnap.metrics ?? []);
  const retry = agentSnap.retry_policy;
  return {
    agent,
    overrides: agentSnap.overrides ?? null,
    modelName: agentSnap.model_config?.name ?? null,
    modelsByName: new Map(),
    agentRetry: retry
      ? {
          maxAttempts: retry.max_attempts,
          initialDelayMs: retry.initial_delay_ms,
          backoffFactor: retry.backoff_factor,
          timeoutMs: retry.timeout_ms,
        }
      : undefined,
    judge: judgeEndpoint ? clientFactory(judgeEndpoint, cache) : null,
    simulator: simEndpoint ? clientFactory(simEndpoint, cache) : null,
    metrics: metrics.success ? metrics.data : [],
    safetyCap: evalSnap.max_turns_cap ?? 30,
    variables,
    metricModels: new Map(),
    workspaceId: run.workspaceId,
    prices: snapshotPrices([agentSnap.model_config, judgeSnap, simSnap]),
    judgeModelId: judgeSnap?.id ?? null,
    simulatorModelId: simSnap?.id ?? null,
  };
}
