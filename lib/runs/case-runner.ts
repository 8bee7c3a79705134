import "server-only";
import { LRUCache } from "lru-cache";
import { logger } from "@/lib/logger";
import { DomainError, NotFoundError } from "@/lib/errors";
import { ExecutionStats, LlmCallCache, LlmClient, endpointLimiter, toEvalLlm, type CallRecord, type Endpoint } from "@/lib/llm";
import type { RetryPolicy } from "@/lib/llm/retry";
import { runConversation, substituteVariables, type AgentRuntime, type AgentTool } from "@/lib/conversation";
import { db } from "@/lib/db";
import { MODEL_VARIABLE } from "@/lib/runs/prepare";
import { evaluateCase, metricConfigListSchema, type EvalLlm, type MetricConfig } from "@/lib/evaluation";
import { testCaseFields, type TestCaseData } from "@/lib/test-cases/schemas";
import { resolveModelEndpoint } from "@/lib/model-configs/service";
import { resolveAgentForRun } from "@/lib/agents/service";
import { demoFetch, isDemoUrl } from "@/lib/demo/model";
import { env } from "@/lib/env";
import { processCaseFiles, type ProcessedCaseFiles } from "@/lib/files/processing";
import { fileName, layoutCaseFiles, type CaseFilesPrompt } from "@/lib/files/layout";
import { mapStrings } from "@/lib/runs/truncate";
import {
  errorOutcome,
  type AgentStats,
  type CaseJob,
  type CaseOutcome,
  type CaseRunner,
  type LlmCallRecord,
  type RunContext,
  type StageReporter,
} from "@/lib/runs/execution-types";

type ModelSnapshot = {
  id: string;
  name: string;
  base_url: string;
  model: string;
  embedding_model: string | null;
  temperature: number | null;
  max_tokens: number | null;
  /** Absent in snapshots taken before file inputs (spec 000): not vision-capable. */
  supports_vision?: boolean;
};
type AgentSnapshot = {
  id: string;
  name?: string;
  kind: "chat" | "http";
  /**
   * Comparison arms: explicit settings that win over every variable (Temperature, MaxTokens,
   * AIConfiguration: `model_config_id` is set when the arm chose its model configuration) and the
   * model's defaults.
   */
  overrides?: { temperature?: number | null; max_tokens?: number | null; model_config_id?: string | null } | null;
  /** Comparisons: spec 003 RetryPolicy for the agent calls (absent: Assay's default policy). */
  retry_policy?: { max_attempts: number; initial_delay_ms: number; backoff_factor: number; timeout_ms: number } | null;
  system_prompt: string | null;
  tools: AgentTool[];
  model_config: ModelSnapshot | null;
  http: { url: string; header_names: string[]; timeout_ms: number } | null;
};
type EvalSnapshot = {
  judge_model_config: ModelSnapshot | null;
  simulator_model_config: ModelSnapshot | null;
  metrics: unknown;
  max_turns_cap: number;
};

/** What a run needs for all its cases: resolved endpoints (keys decrypted once) and a call cache. */
type RunResources = {
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
};
type LlmClientFactory = (onRecord?: (r: CallRecord) => void) => LlmClient;
type NamedModel = { endpoint: Endpoint; supportsVision: boolean };

const RESOURCE_CACHE_SIZE = 50;

export type CaseRunnerOptions = {
  /**
   * Open the chat agent's keep-alive connections (up to the run's concurrency) when a run's
   * resources load, before its first wave (LlmClient.preconnect). The worker turns it on; off by
   * default, so tests that count a fake server's requests see only the calls themselves.
   */
  preconnect?: boolean;
};

/**
 * Runs one case end to end: converse with the agent (mocked tools, simulated user), evaluate
 * (checks, tool calls, outcome judge, metrics, pass rule) and return everything the executor
 * persists — including every LLM call with its exact request and raw response.
 */
export function createCaseRunner(opts: CaseRunnerOptions = {}): CaseRunner {
  const resources = new LRUCache<string, Promise<RunResources>>({ max: RESOURCE_CACHE_SIZE });

  function resourcesFor(run: RunContext): Promise<RunResources> {
    let r = resources.get(run.id);
    if (!r) {
      r = loadResources(run, opts);
      r.catch(() => resources.delete(run.id));
      resources.set(run.id, r);
    }
    return r;
  }

  return async (job: CaseJob, run: RunContext, signal: AbortSignal, reportStage?: StageReporter): Promise<CaseOutcome> => {
    const report: StageReporter = reportStage ?? (() => undefined);
    const calls: LlmCallRecord[] = [];
    const onRecord = (r: CallRecord) => calls.push(toCallRecord(r));
    let res: RunResources;
    try {
      res = await resourcesFor(run);
    } catch (err) {
      // A missing agent or model configuration (or an undecryptable key) fails every case the
      // same way: the executor fails the run once instead. Anything else may be passing.
      const message = configMessage(err);
      return {
        ...errorOutcome("config", message),
        stage: "agent_failed",
        llmCalls: calls,
        ...(err instanceof DomainError ? { runError: message } : {}),
      };
    }
    const parsedCase = testCaseFields.safeParse(job.caseSnapshot);
    if (!parsedCase.success) return { ...errorOutcome("config", "The case snapshot is not a valid test case"), stage: "agent_failed" };
    const testCase: TestCaseData = parsedCase.data;
    const caseId = (job.caseSnapshot as { id?: string }).id ?? job.caseResultId;

    if (testCase.persona && !res.simulator) {
      return {
        ...errorOutcome(
          "config",
          "This multi-turn case needs a simulated user, but the suite has no judge or simulator model configuration",
        ),
        stage: "agent_failed",
      };
    }
    // Spec 004: this case's own resolution when it has one (run values otherwise), with its effects.
    const caseVariables = (job.resolvedVariables as { values?: Record<string, unknown> } | null | undefined)?.values ?? res.variables;
    let agent: AgentRuntime;
    try {
      agent = await agentForCase(res, caseVariables);
    } catch (err) {
      return { ...errorOutcome("config", configMessage(err)), stage: "agent_failed", llmCalls: calls };
    }

    // Spec 000: files are processed before the conversation (the claim set `processing_files`);
    // a file that fails makes the case an error and the agent is never called.
    let files: CaseFilesPrompt | null = null;
    let processedFiles: ProcessedCaseFiles["processed"] | null = null;
    if (testCase.files && testCase.files.length > 0) {
      const result = await processCaseFiles(testCase.files, { workspaceId: run.workspaceId, signal });
      processedFiles = result.processed;
      if (signal.aborted) return { ...errorOutcome("cancelled", "Run cancelled while this case was running"), processedFiles };
      const failure = filesFailure(result, agent);
      if (failure) return { ...errorOutcome("files", failure), stage: "files_failed", processedFiles };
      report("files_ready");
      files = layoutCaseFiles(result.processed, agent.kind === "chat" ? result.images : [], { maxChars: env.ASSAY_FILES_MAX_CHARS });
      report("executing_agent");
    }

    const conversation = await runConversation({
      agent,
      testCase: {
        id: caseId,
        name: testCase.name,
        persona: testCase.persona,
        initial_message: testCase.initial_message,
        user_context: substituteDeep(testCase.user_context, caseVariables),
        max_turns: testCase.max_turns,
      },
      variables: caseVariables,
      runId: run.id,
      // runConversation reports its calls through `onRecord` itself: clients get no sink here.
      simulator: res.simulator ? res.simulator() : null,
      agentClient: agent.kind === "chat" ? agentClient(agent.endpoint, res.agentRetry) : undefined,
      ...(res.agentRetry ? { retryPolicy: res.agentRetry, callTimeoutMs: res.agentRetry.timeoutMs } : {}),
      safetyCap: res.safetyCap,
      signal,
      onRecord,
      files,
    });
    // The requests keep their text; image data URLs are not logged (they can be megabytes each).
    if (files?.images.length) for (const c of calls) c.request = withoutDataUrls(c.request);
    const agentStats = agentStatsOf(conversation, calls, agent);
    if (conversation.error?.type === "cancelled" || signal.aborted) {
      return {
        ...errorOutcome("cancelled", "Run cancelled while this case was running"),
        transcript: conversation.transcript,
        actualResponse: conversation.finalResponse || null,
        turns: conversation.turns,
        llmCalls: calls,
        agentStats,
        processedFiles,
      };
    }
    if (!conversation.error) report("agent_complete");
    report("evaluating");

    const judge: EvalLlm = res.judge ? toEvalLlm(res.judge(onRecord), { signal }) : missingJudge;
    const evaluation = await evaluateCase({
      testCase: { ...testCase, expected_outcomes: substituteDeep(testCase.expected_outcomes, caseVariables) },
      transcript: conversation.transcript,
      finalResponse: conversation.finalResponse,
      actualToolCalls: conversation.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments })),
      conversationError: conversation.error ? { type: conversation.error.type, message: conversation.error.message } : null,
      metrics: res.metrics,
      llm: judge,
      metricLlm: async (modelConfigId) => toEvalLlm((await metricModel(res, modelConfigId))(onRecord), { signal }),
    });
    return {
      status: evaluation.status,
      transcript: conversation.transcript,
      actualResponse: conversation.finalResponse || null,
      checkResults: evaluation.check_results,
      toolCallResults: evaluation.tool_call_results,
      outcomeResults: evaluation.outcome_results,
      metricResults: evaluation.metric_results,
      promptTokens: conversation.promptTokens,
      completionTokens: conversation.completionTokens,
      latencyMs: conversation.agentLatencyMs,
      // Spec 003: retry_count is the agent's own; judge, simulator, check and metric retries (transport
      // retries, and metric re-asks under retry_on_failure) are counted apart.
      retryCount: agentStats.retry_count,
      evaluatorRetryCount:
        calls.reduce((a, c) => a + (c.purpose === "agent" ? 0 : Math.max(0, c.attempts - 1)), 0) +
        evaluation.metric_results.reduce((a, m) => a + m.retry_count, 0),
      agentStats,
      turns: conversation.turns,
      // Errors only (spec 000 `errors`); a failed case's reasons and a safety cap stop are reported apart.
      errorMessage: conversation.error ? conversation.error.message : evaluation.judge_error,
      errorType: conversation.error ? conversation.error.type : evaluation.judge_error ? "judge" : null,
      failureReasons: evaluation.failure_reasons,
      endReason: conversation.endReason,
      llmCalls: calls,
      stage: conversation.error ? "agent_failed" : evaluation.judge_error ? "evaluation_failed" : "complete",
      processedFiles,
    };
  };
}

/**
 * Why the case cannot run with its files: a file that failed to process, or an image for a chat
 * agent whose model configuration is not marked vision-capable (never silently dropped).
 */
function filesFailure(result: ProcessedCaseFiles, agent: AgentRuntime): string | null {
  const n = result.processed.length;
  const label = (i: number) => `File ${i + 1} of ${n} (${fileName(result.processed[i]!)})`;
  // Processing errors name the file themselves (or its file:<id> when it is gone).
  const errors = result.processed.flatMap((p, i) => (p.error ? [`File ${i + 1} of ${n}: ${p.error}`] : []));
  if (errors.length) return errors.join("; ");
  if (agent.kind === "chat" && !agent.supportsVision) {
    const i = result.processed.findIndex((p) => p.original.type === "image");
    if (i >= 0) {
      const model = agent.modelConfigName ?? agent.endpoint.model;
      return `${label(i)} is an image but the model configuration "${model}" is not marked vision-capable`;
    }
  }
  return null;
}

const DATA_URL = /^data:image\/[\w.+-]+;base64,/;

/** Image data URLs in a logged request replaced by their media type and size. */
function withoutDataUrls(request: unknown): unknown {
  return mapStrings(request, (s) =>
    DATA_URL.test(s) ? `${s.slice(0, s.indexOf(",") + 1)}… [${s.length.toLocaleString("en-US")} characters: the image is not stored]` : s,
  );
}

/** Something the run needs is gone for good (a deleted agent or model configuration). */
class RunSetupError extends DomainError {}

const missingJudge: EvalLlm = {
  model: "none",
  json: () => Promise.reject(new Error("The suite has no judge model configuration")),
  embed: () => Promise.reject(new Error("The suite has no judge model configuration")),
};

function configMessage(err: unknown): string {
  if (err instanceof DomainError) return err.message;
  logger.error({ err }, "could not prepare a run");
  return "Could not prepare the run's agent and models";
}

function toCallRecord(r: CallRecord): LlmCallRecord {
  return {
    attemptErrors: r.attemptErrors,
    errorType: r.errorType,
    startedAt: r.startedAt,
    purpose: r.purpose,
    model: r.model,
    request: r.request,
    response: r.response,
    error: r.error,
    attempts: r.attempts,
    latencyMs: r.latencyMs,
    cached: r.cached,
  };
}

/** One LlmClient per call site binds the case's record sink; the run's cache is shared. */
function clientFactory(endpoint: Endpoint, cache: LlmCallCache): LlmClientFactory {
  const fetch = isDemoUrl(endpoint.baseUrl) ? demoFetch : undefined;
  return (onRecord) => new LlmClient(endpoint, { cache, onRecord, ...(fetch ? { fetch } : {}) });
}

function agentClient(endpoint: Endpoint, retryPolicy: Partial<RetryPolicy> | undefined): LlmClient {
  // Agent calls are never cached: each case must really ask the agent.
  const fetch = isDemoUrl(endpoint.baseUrl) ? demoFetch : undefined;
  return new LlmClient(endpoint, { ...(fetch ? { fetch } : {}), ...(retryPolicy ? { retryPolicy } : {}) });
}

/**
 * Spec 003 AgentResponse extras of one execution, from the agent calls only (never the
 * simulator or judge): exact latency and per-turn latencies, retries, the ExecutionStats of those
 * calls, the model that answered and when the execution started.
 */
function agentStatsOf(
  conversation: { agentLatencyExactMs: number; turnLatenciesMs: number[] },
  calls: LlmCallRecord[],
  agent: AgentRuntime,
): AgentStats {
  const stats = new ExecutionStats();
  let retries = 0;
  let model: string | null = null;
  let startedAt: string | null = null;
  for (const c of calls) {
    if (c.purpose !== "agent") continue;
    stats.record({
      purpose: c.purpose,
      attempts: c.attempts,
      attemptErrors: c.attemptErrors ?? [],
      errorType: c.errorType ?? null,
      cached: c.cached,
    });
    retries += Math.max(0, c.attempts - 1);
    model ??= c.model;
    startedAt ??= c.startedAt ?? null;
  }
  // Microsecond precision: far below the spec's ±10 ms, and a value with three decimals survives
  // every JSON and jsonb round trip bit for bit (an export re-imported gives identical statistics).
  const micro = (ms: number) => Math.round(ms * 1000) / 1000;
  return {
    latency_ms: micro(conversation.agentLatencyExactMs),
    turn_latencies_ms: conversation.turnLatenciesMs.map(micro),
    retry_count: retries,
    model: model ?? (agent.kind === "chat" ? agent.endpoint.model : "http"),
    timestamp: startedAt,
    stats: stats.data,
  };
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
  };
}

async function metricModel(res: RunResources, modelConfigId: string): Promise<LlmClientFactory> {
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
 * configuration's endpoint (spec 004 effects per case). An arm's explicit settings win over the
 * variables: its model configuration is never switched, its temperature and max tokens are sent.
 */
async function agentForCase(res: RunResources, values: Record<string, unknown>): Promise<AgentRuntime> {
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
  const current = await resolveModelEndpoint(workspaceId, model.id);
  return { endpoint: { id: model.id, ...current }, supportsVision: model.supportsVision };
}

/** `{{Name}}` placeholders in every string of a JSON value (user context, expected outcomes). */
function substituteDeep<T>(value: T, variables: Record<string, unknown>): T {
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

async function loadResources(run: RunContext, opts: CaseRunnerOptions): Promise<RunResources> {
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
    agent = { kind: "http", url: agentSnap.http.url, headers: current.http?.headers ?? {}, timeoutMs: agentSnap.http.timeout_ms };
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
  };
}
