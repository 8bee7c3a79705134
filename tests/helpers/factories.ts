// Every fixture the integration tests build in PostgreSQL, in one place: workspaces, members
// and API keys; model configurations, agents, suites and cases; runs with chosen outcomes; and
// the small waits and readers the run tests share. Rows are created directly (not through the
// services), so a fixture never depends on the behaviour a test is checking.
import type { Prisma } from "@/lib/generated/prisma/client";
import { randomBytes } from "node:crypto";
import { beforeAll } from "vitest";
import { db } from "@/lib/db";
import { hashToken } from "@/lib/crypto";
import type { Role, WorkspaceContext } from "@/lib/auth/roles";
import type { VariableDefinition } from "@/lib/agents/schemas";
import { DomainError, ValidationError } from "@/lib/errors";
import { getRun, startRun } from "@/lib/runs/service";
import { rejectionOf } from "./errors";
import { finalizeRunIfDone } from "@/lib/runs/finalize";
import type { exportTestCases } from "@/lib/test-cases/import-export";
import type { StartRunInput } from "@/lib/runs/schemas";

const uid = () => randomBytes(4).toString("hex");

// ---- workspaces, members, API keys

/** A workspace with one member of the given role; returns a member context. */
export async function makeWorkspace(role: Role = "owner", name = `ws-${uid()}`) {
  const user = await db.user.create({ data: { email: `${uid()}@example.test`, name: "Tester" } });
  const workspace = await db.workspace.create({
    data: { name, memberships: { create: { userId: user.id, role } } },
  });
  const ctx: WorkspaceContext = { workspaceId: workspace.id, role, userId: user.id, apiKeyId: null };
  return { user, workspace, ctx };
}

/** Adds a user with `role` to an existing workspace. */
export async function addMember(workspaceId: string, role: Role) {
  const user = await db.user.create({ data: { email: `${uid()}@example.test` } });
  await db.membership.create({ data: { workspaceId, userId: user.id, role } });
  const ctx: WorkspaceContext = { workspaceId, role, userId: user.id, apiKeyId: null };
  return { user, ctx };
}

/** Registers an API key with `role` and returns its bearer token. */
export async function makeApiKey(workspaceId: string, role: Role = "admin"): Promise<string> {
  const token = `test_${randomBytes(24).toString("hex")}`;
  await db.apiKey.create({
    data: { workspaceId, name: `key-${uid()}`, role, prefix: token.slice(0, 8), keyHash: hashToken(token) },
  });
  return token;
}

/** A workspace whose one member has `role`, and an API key of the same role: its token and ids at hand. */
export async function makeWorkspaceWithKey(role: Role) {
  const ws = await makeWorkspace(role);
  const token = await makeApiKey(ws.workspace.id, role);
  return { ...ws, workspaceId: ws.workspace.id, userId: ws.user.id, token };
}

/**
 * Registers a `beforeAll` that makes an owner's workspace with an admin, an editor and a viewer
 * API key. The returned objects are filled in place then, so a file can destructure them at once.
 */
export function workspaceWithKeys() {
  const ws = {} as Awaited<ReturnType<typeof makeWorkspace>>;
  const tokens = { admin: "", editor: "", viewer: "" };
  beforeAll(async () => {
    Object.assign(ws, await makeWorkspace("owner"));
    for (const role of ["admin", "editor", "viewer"] as const) tokens[role] = await makeApiKey(ws.workspace.id, role);
  });
  return { ws, tokens };
}

// ---- model configurations, agents, suites, cases

/** The variables model's example schema (snake_case, as agents store it). */
export const VARIABLES: VariableDefinition[] = [
  {
    name: "AIConfiguration",
    display_name: "AI Configuration",
    description: null,
    data_type: "string",
    value_source: "static",
    possible_values: [
      { value: "gpt-4o", label: "GPT-4o", description: null },
      { value: "claude-opus", label: "Claude Opus", description: null },
    ],
    default_value: null,
    required: false,
  },
  {
    name: "Temperature",
    display_name: "Temperature",
    description: null,
    data_type: "number",
    value_source: "freeform",
    possible_values: [],
    default_value: 0.7,
    required: false,
  },
  {
    name: "Verbose",
    display_name: "Verbose",
    description: null,
    data_type: "boolean",
    value_source: "freeform",
    possible_values: [],
    default_value: null,
    required: false,
  },
  {
    name: "AsOf",
    display_name: "As of",
    description: null,
    data_type: "date",
    value_source: "freeform",
    possible_values: [],
    default_value: null,
    required: false,
  },
];

/**
 * One agent variable as agents store it (snake_case): a freeform, optional variable without a
 * default unless `over` says otherwise.
 */
export function variable(name: string, dataType: VariableDefinition["data_type"], over: Record<string, unknown> = {}) {
  return {
    name,
    display_name: name,
    data_type: dataType,
    value_source: "freeform",
    possible_values: [] as { value: unknown }[],
    default_value: null as unknown,
    required: false,
    ...over,
  };
}

/** The variables model's AIConfiguration: a static choice of model configurations by name, the first by default. */
export function aiConfigurationVariable(...configNames: string[]) {
  return variable("AIConfiguration", "string", {
    display_name: "AI configuration",
    value_source: "static",
    possible_values: configNames.map((value) => ({ value })),
    default_value: configNames[0],
  });
}

/** Replaces the agent's variable schema. */
export async function setAgentVariables(agentId: string, variables: object[]) {
  await db.agent.update({ where: { id: agentId }, data: { variablesSchema: variables } });
}

/** A model configuration of the workspace; by default at a closed loopback port, so nothing answers it. */
export async function makeModelConfig(
  workspaceId: string,
  fields: { name?: string; baseUrl?: string; model?: string; inputPricePerMtok?: number; outputPricePerMtok?: number } = {},
) {
  return db.modelConfig.create({
    data: {
      ...fields,
      workspaceId,
      name: fields.name ?? `mc-${uid()}`,
      baseUrl: fields.baseUrl ?? "http://127.0.0.1:9/v1",
      model: fields.model ?? "fake",
    },
  });
}

export async function makeAgent(workspaceId: string, opts: { name?: string; variables?: unknown } = {}) {
  const mc = await makeModelConfig(workspaceId);
  return db.agent.create({
    data: {
      workspaceId,
      name: opts.name ?? `agent-${uid()}`,
      kind: "chat",
      systemPrompt: "You are helpful.",
      modelConfigId: mc.id,
      variablesSchema: (opts.variables ?? VARIABLES) as object,
    },
    select: { id: true, name: true },
  });
}

/** A chat agent without tools or variables that answers through `modelConfigId` under `systemPrompt`. */
export function makeChatAgent(workspaceId: string, modelConfigId: string, systemPrompt = "You are a helpful assistant.") {
  return db.agent.create({ data: { workspaceId, name: `agent-${uid()}`, kind: "chat", systemPrompt, modelConfigId, tools: [] } });
}

export async function makeCases(workspaceId: string, suiteId: string, statuses: ("draft" | "active" | "archived")[], deleted = false) {
  await db.testCase.createMany({
    data: statuses.map((status, i) => ({
      workspaceId,
      suiteId,
      name: `case ${i}`,
      status,
      sortOrder: i,
      deletedAt: deleted ? new Date() : null,
    })),
  });
}

/** An agent and a live suite in the workspace, created directly. */
export async function makeSuite(workspaceId: string, name = `suite-${uid()}`) {
  const agent = await db.agent.create({ data: { workspaceId, name: `agent-${uid()}`, kind: "chat", systemPrompt: "You help." } });
  return db.suite.create({ data: { workspaceId, agentId: agent.id, name } });
}

/**
 * An owner's workspace with one (empty) suite and an API key for each of `roles`: the route tests'
 * usual start, made twice when a test needs another workspace whose key must not reach this one.
 */
export async function makeWorkspaceWithSuiteAndKeys<R extends Role>(roles: readonly R[]) {
  const ws = await makeWorkspace("owner");
  const suiteId = (await makeSuite(ws.workspace.id)).id;
  const keys = {} as Record<R, string>;
  for (const role of roles) keys[role] = await makeApiKey(ws.workspace.id, role);
  return { ...ws, suiteId, keys };
}

/** An owner's workspace with editor and viewer API keys and a suite of `count` cases whose agent points at `baseUrl`. */
export async function makeKeyedSuite(count: number, baseUrl: string, caseData?: (i: number) => Record<string, unknown>) {
  const { ctx, workspace } = await makeWorkspace("owner");
  const fixtures = await makeSuiteWithCases(ctx, count, { baseUrl, caseData });
  return {
    ctx,
    workspace,
    ...fixtures,
    editor: await makeApiKey(workspace.id, "editor"),
    viewer: await makeApiKey(workspace.id, "viewer"),
  };
}

/** A chat agent (pointing at `baseUrl`) with a suite holding `count` active single-turn cases. */
export async function makeSuiteWithCases(
  ctx: WorkspaceContext,
  count: number,
  opts: { baseUrl?: string; tags?: (i: number) => string[]; caseData?: (i: number) => Record<string, unknown> } = {},
) {
  const modelConfig = await makeModelConfig(ctx.workspaceId, { baseUrl: opts.baseUrl, model: "fake-model" });
  const agent = await makeChatAgent(ctx.workspaceId, modelConfig.id);
  const suite = await db.suite.create({
    data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: `suite-${Math.random()}`, llmJudgeModelConfigId: modelConfig.id },
  });
  await db.testCase.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      workspaceId: ctx.workspaceId,
      suiteId: suite.id,
      name: `case ${i}`,
      initialMessage: `question ${i}`,
      sortOrder: i,
      tags: opts.tags?.(i) ?? [],
      ...(opts.caseData?.(i) ?? {}),
    })),
  });
  return { modelConfig, agent, suite };
}

/**
 * An editor's workspace with a suite of two single-turn cases whose agent declares the variables
 * model's Agent Eval variables: AIConfiguration (static: the agent's model configuration or "gpt-b",
 * a second configuration answering as model-b) and Temperature (number, default 0.2).
 */
export async function makeEvalVariablesSuite(baseUrl: string, caseData?: (i: number) => Record<string, unknown>) {
  const { ctx } = await makeWorkspace("editor");
  const made = await makeSuiteWithCases(ctx, 2, { baseUrl, caseData });
  const other = await makeModelConfig(ctx.workspaceId, { name: "gpt-b", baseUrl, model: "model-b" });
  await setAgentVariables(made.agent.id, [
    aiConfigurationVariable(made.modelConfig.name, "gpt-b"),
    variable("Temperature", "number", { default_value: 0.2 }),
  ]);
  return { ctx, ...made, other };
}

// ---- runs

export async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`waitFor timed out; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const FINISHED = ["completed", "failed", "cancelled"];

/** What `load` answers once it has finished (completed, failed or cancelled): a run, a comparison, a matrix. */
export function waitUntilFinished<T extends { status: string }>(load: () => Promise<T>, timeoutMs = 20_000): Promise<T> {
  return waitFor(load, (v) => FINISHED.includes(v.status), timeoutMs);
}

/** Starts a run of the suite and answers it once it has finished. */
export async function runToEnd(
  ctx: WorkspaceContext,
  suiteId: string,
  body: Record<string, unknown> = {},
  trigger: "manual" | "api" = "manual",
) {
  const run = await startRun(ctx, suiteId, body, trigger);
  return waitUntilFinished(() => getRun(ctx, run.id));
}

/** A run report read to the end (reports are streamed: lib/runs/report.ts). */
export async function reportText(ctx: WorkspaceContext, runId: string, format: "json" | "markdown" | "csv" | "junit"): Promise<string> {
  const { buildRunReport } = await import("@/lib/runs/report");
  return new Response((await buildRunReport(ctx, runId, format)).body).text();
}

/** A test-case export read to the end (exports stream too). */
export async function exportText(...args: Parameters<typeof exportTestCases>) {
  const { exportTestCases } = await import("@/lib/test-cases/import-export");
  const file = await exportTestCases(...args);
  return { ...file, body: await new Response(file.body).text() };
}

/** How many of a run's case results ended each way; `total` (default: their sum) also counts open ones. */
export type CaseCounts = { total?: number; passed?: number; failed?: number; error?: number; skipped?: number };

/** The counts of case results with these statuses (every one in `total`, pending and running too). */
export function countStatuses(statuses: readonly string[]): CaseCounts {
  const count = (s: string) => statuses.filter((x) => x === s).length;
  return { total: statuses.length, passed: count("passed"), failed: count("failed"), error: count("error"), skipped: count("skipped") };
}

/**
 * The columns every Run row written directly needs (an API-triggered run with an empty agent
 * snapshot) and its counters; tests spread their own times, results and overrides after it.
 */
export function runRowData(ctx: WorkspaceContext, suiteId: string, status: Prisma.RunUncheckedCreateInput["status"], counts: CaseCounts) {
  const { passed = 0, failed = 0, error = 0, skipped = 0 } = counts;
  return {
    workspaceId: ctx.workspaceId,
    suiteId,
    status,
    triggeredBy: "api" as const,
    agentSnapshot: {},
    totalCases: counts.total ?? passed + failed + error + skipped,
    passedCases: passed,
    failedCases: failed,
    errorCases: error,
    skippedCases: skipped,
  };
}

type Outcome = "passed" | "failed" | "error" | "skipped";

/**
 * Starts a run the way the API does (selection key included), then writes each case's outcome
 * by case name (default passed) and finalizes it as the executor would: totals, status,
 * regression check and webhook events. No model is called.
 */
export async function runWithOutcomes(
  ctx: WorkspaceContext,
  suiteId: string,
  outcomes: Record<string, Outcome> = {},
  selection: StartRunInput = {},
) {
  return finishedRun(ctx, suiteId, selection, (r) => {
    const status = outcomes[r.name] ?? "passed";
    return { status, ...(status === "error" ? { errorType: "agent", errorMessage: "boom" } : {}) };
  });
}

/**
 * runWithOutcomes with several trials: a run of `trials` trials per case, each case's outcomes
 * by name, one per trial (`{"case 0": ["failed", "passed", "passed"]}`; a missing case or trial
 * passed). Each result gets a fixed duration (100 ms × (trial + 1)) and, when it failed, a
 * failure reason naming its trial, so reports built from it can be compared byte for byte.
 */
export async function runWithTrialOutcomes(
  ctx: WorkspaceContext,
  suiteId: string,
  trials: number,
  outcomes: Record<string, Outcome[]> = {},
  selection: StartRunInput = {},
) {
  return finishedRun(ctx, suiteId, { ...selection, trials }, (r) => {
    const status = outcomes[r.name]?.[r.repetition] ?? "passed";
    return {
      status,
      durationMs: 100 * (r.repetition + 1),
      actualResponse: `answer ${r.repetition}`,
      ...(status === "failed" ? { failureReasons: [`wrong answer ${r.repetition}`] } : {}),
      ...(status === "error" ? { errorType: "agent", errorMessage: `boom ${r.repetition}` } : {}),
    };
  });
}

/** Starts a run, writes what `written` gives each case result (with start and end times) and finalizes it. */
async function finishedRun(
  ctx: WorkspaceContext,
  suiteId: string,
  body: StartRunInput,
  written: (r: { name: string; repetition: number }) => Prisma.CaseResultUpdateInput,
) {
  const run = await startRun(ctx, suiteId, body, "api");
  const results = await db.caseResult.findMany({ where: { runId: run.id }, select: { id: true, name: true, repetition: true } });
  for (const r of results) {
    await db.caseResult.update({ where: { id: r.id }, data: { ...written(r), completedAt: new Date(), startedAt: new Date() } });
  }
  await finalizeRunIfDone(run.id);
  return db.run.findUniqueOrThrow({ where: { id: run.id } });
}

// ---- request bodies and expected errors

export { CASE_FIELDS } from "@/lib/test-cases/schemas";

/** An alert's fields, as the API returns and the OpenAPI document requires them. */
export const ALERT_FIELDS = [
  "id",
  "suite_id",
  "run_id",
  "baseline_run_id",
  "previous_pass_rate",
  "pass_rate",
  "drop_points",
  "flipped_cases",
  "acknowledged_at",
  "acknowledged_by",
  "created_at",
] as const;

/** A minimal runnable case (fields as a client writes them). */
export function runnableCase(overrides: Record<string, unknown> = {}) {
  return { name: `case-${uid()}`, initial_message: "Hello, I need help with my order", ...overrides };
}

/** Awaits a rejection and returns the domain error, checking its class. */
export const rejection = <E extends DomainError>(p: Promise<unknown>, cls: new (...args: never[]) => E): Promise<E> => rejectionOf(p, cls);

/** The issues of a ValidationError as "path: message" lines. */
export async function issuesOf(p: Promise<unknown>): Promise<{ path: string; message: string }[]> {
  const err = await rejection(p, ValidationError);
  return err.issues;
}
