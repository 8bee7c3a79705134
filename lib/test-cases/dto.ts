import "server-only";
import type { z } from "zod";
import { Prisma } from "@/lib/generated/prisma/client";
import type { testCaseDocument, testCaseResource } from "./openapi";
import { iso } from "@/lib/serialize";
import type { LastVerdict, RecentResult } from "./last-verdicts";
import { caseSourceResource, type CaseSource } from "@/lib/test-cases/schemas";
import type { Check, ExpectedToolCall, Persona, TestCaseData, TestCaseStatus } from "@/lib/test-cases/schemas";
import { toCaseVariables } from "@/lib/test-cases/variables";
import { caseFilesSchema, compactFileInput, type FileInputDocument } from "@/lib/files/schemas";
import type { VariableDefinition } from "@/lib/agents/schemas";

/** The public JSON of a test case (REST API, actions, UI). */
export type TestCaseDto = WithCompactFiles<z.output<typeof testCaseResource>>;

/**
 * Files go out in their compact document form (absent options omitted, `compactFileInput`), the
 * form the document describes: the schema's output view shows a transform by its input, while
 * `z.output` would be the normalised form parsing fills in.
 */
type WithCompactFiles<T> = Omit<T, "files"> & { files: FileInputDocument[] | null };

/** A row of the suite page's case table (dates pre-formatted on the server). */
export type CaseRow = {
  id: string;
  name: string;
  status: TestCaseStatus;
  difficulty: "normal" | "hard";
  tags: string[];
  multi_turn: boolean;
  updated_label: string;
  updated_at: string;
  /** The status of the case's newest finished result in an ordinary run; null when it never ran. */
  last_verdict: LastVerdict | null;
  /** Its latest finished results, newest first (lib/test-cases/last-verdicts.ts). */
  recent: RecentResult[];
};

/** Live cases per status of a suite (for the status tabs), with their total. */
export type StatusCounts = { draft: number; active: number; archived: number; total: number };

/** A tool of the suite's agent, offered when a case expects tool calls. */
export type AgentToolOption = { name: string; description: string };

/** What the case form needs of its suite: where it is, its tags, its agent's tools and variables (the variables model). */
export type CaseFormSuite = {
  workspaceId: string;
  suiteId: string;
  tags: string[];
  tools: AgentToolOption[];
  variableDefinitions: VariableDefinition[];
};

/** The test case format's fields of a case (plus checks/mode/ground_truth), in its order: what export writes. */
export type TestCaseDocument = WithCompactFiles<z.output<typeof testCaseDocument>>;

export const testCaseSelect = {
  id: true,
  suiteId: true,
  name: true,
  description: true,
  difficulty: true,
  tags: true,
  status: true,
  persona: true,
  initialMessage: true,
  userContext: true,
  maxTurns: true,
  expectedOutcomes: true,
  expectedOutcomeLabels: true,
  expectedToolCalls: true,
  evaluationCriteriaOverride: true,
  checks: true,
  mode: true,
  groundTruth: true,
  evaluations: true,
  variables: true,
  files: true,
  sortOrder: true,
  source: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.TestCaseSelect;

export type TestCaseRow = Prisma.TestCaseGetPayload<{ select: typeof testCaseSelect }>;

type JsonObject = Record<string, unknown>;
const asObject = (v: unknown): JsonObject | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as JsonObject) : null);

// jsonb stores object keys sorted by length; rebuild the nested types in their documented key order.
function persona(v: unknown): Persona | null {
  const p = asObject(v);
  return p ? { type: String(p.type ?? ""), description: String(p.description ?? ""), instructions: String(p.instructions ?? "") } : null;
}

/**
 * Expected outcomes in their authored label order: jsonb keeps its own key order, so the order
 * lives in `expectedOutcomeLabels` (keys missing from it, e.g. written by older code, follow).
 */
export function orderedOutcomes(v: unknown, labels: readonly string[] | null | undefined): JsonObject | null {
  const o = asObject(v);
  if (!o) return null;
  const keys = Object.keys(o);
  const known = new Set(keys);
  const ordered = [...new Set((labels ?? []).filter((l) => known.has(l)))];
  const listed = new Set(ordered);
  return Object.fromEntries([...ordered, ...keys.filter((k) => !listed.has(k))].map((k) => [k, o[k]]));
}

function evaluations(v: unknown): string[] | null {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : null;
}

function toolCalls(v: unknown): ExpectedToolCall[] | null {
  if (!Array.isArray(v)) return null;
  return v.map((raw) => {
    const c = asObject(raw) ?? {};
    // `forbidden` is only present when true (JSON and YAML output omit undefined).
    return { tool: String(c.tool ?? ""), expected_params: asObject(c.expected_params), forbidden: c.forbidden === true ? true : undefined };
  });
}

function checks(v: unknown): Check[] {
  if (!Array.isArray(v)) return [];
  return v.map((raw): Check => {
    const c = asObject(raw) ?? {};
    if (c.type === "contains_phrases") {
      return {
        type: "contains_phrases",
        phrases: Array.isArray(c.phrases) ? c.phrases.map(String) : [],
        case_sensitive: c.case_sensitive === true,
      };
    }
    if (c.type === "semantic_similarity") {
      return { type: "semantic_similarity", expected_answer: String(c.expected_answer ?? ""), threshold: Number(c.threshold) };
    }
    return {
      type: "llm_judge",
      expected_answer: String(c.expected_answer ?? ""),
      criteria: typeof c.criteria === "string" ? c.criteria : null,
    };
  });
}

function caseSource(v: unknown): CaseSource | null {
  const parsed = caseSourceResource.safeParse(v);
  return parsed.success ? parsed.data : null;
}

export function toTestCaseDto(row: TestCaseRow): TestCaseDto {
  return {
    id: row.id,
    suite_id: row.suiteId,
    name: row.name,
    description: row.description,
    difficulty: row.difficulty,
    tags: row.tags,
    status: row.status,
    persona: persona(row.persona),
    initial_message: row.initialMessage,
    user_context: asObject(row.userContext),
    max_turns: row.maxTurns,
    expected_outcomes: orderedOutcomes(row.expectedOutcomes, row.expectedOutcomeLabels),
    expected_tool_calls: toolCalls(row.expectedToolCalls),
    evaluation_criteria_override: row.evaluationCriteriaOverride,
    checks: checks(row.checks),
    mode: row.mode,
    ground_truth: row.groundTruth,
    evaluations: evaluations(row.evaluations),
    variables: toCaseVariables(row.variables),
    files: caseFiles(row.files),
    sort_order: row.sortOrder,
    source: caseSource(row.source),
    created_at: iso(row.createdAt) ?? "",
    updated_at: iso(row.updatedAt) ?? "",
  };
}

/** The case as a document (the test case format's field order), e.g. for export or to merge a PATCH into. */
export function toTestCaseDocument(dto: TestCaseDto): TestCaseDocument {
  return {
    name: dto.name,
    description: dto.description,
    difficulty: dto.difficulty,
    tags: dto.tags,
    status: dto.status,
    persona: dto.persona,
    initial_message: dto.initial_message,
    user_context: dto.user_context,
    max_turns: dto.max_turns,
    expected_outcomes: dto.expected_outcomes,
    expected_tool_calls: dto.expected_tool_calls,
    evaluation_criteria_override: dto.evaluation_criteria_override,
    checks: dto.checks,
    mode: dto.mode,
    ground_truth: dto.ground_truth,
    evaluations: dto.evaluations,
    variables: dto.variables,
    files: dto.files,
  };
}

/** Stored files list → its compact public form (a malformed stored value counts as none). */
function caseFiles(value: unknown): FileInputDocument[] | null {
  const parsed = caseFilesSchema.safeParse(value);
  return parsed.success && parsed.data ? parsed.data.map(compactFileInput) : null;
}

const json = (v: unknown) => (v === null || v === undefined ? Prisma.DbNull : (v as Prisma.InputJsonValue));

/** Validated case → Prisma columns (without ids and sort order). */
export function toColumns(data: TestCaseData) {
  return {
    name: data.name,
    description: data.description,
    difficulty: data.difficulty,
    tags: data.tags,
    status: data.status,
    persona: json(data.persona),
    initialMessage: data.initial_message,
    userContext: json(data.user_context),
    maxTurns: data.max_turns,
    expectedOutcomes: json(data.expected_outcomes),
    // jsonb reorders keys: the authored order of the labels is kept here (see orderedOutcomes).
    expectedOutcomeLabels: Object.keys(data.expected_outcomes ?? {}),
    expectedToolCalls: json(data.expected_tool_calls?.map(stripUndefined) ?? null),
    evaluationCriteriaOverride: data.evaluation_criteria_override,
    checks: data.checks as Prisma.InputJsonValue,
    mode: data.mode,
    groundTruth: data.ground_truth,
    evaluations: json(data.evaluations),
    variables: json(data.variables),
    files: json(data.files?.map(compactFileInput) ?? null),
  } satisfies Omit<Prisma.TestCaseUncheckedCreateInput, "workspaceId" | "suiteId">;
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
