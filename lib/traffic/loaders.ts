import "server-only";
import { hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { scopedLoader } from "@/lib/tenant-scope";
import { DomainError, NotFoundError } from "@/lib/errors";
import { findInvalidText } from "@/lib/validation/text";
import type { SearchParams } from "@/lib/pages/props";
import { conversationListQuery, draftCaseInput } from "./schemas";
import type { CaseSource } from "@/lib/test-cases/schemas";
import {
  caseSourceRetained,
  draftCaseFromCaseResult,
  draftCaseFromConversation,
  getConversation,
  listConversations,
  listMappedAgents,
  listTrafficServices,
} from "./service";

export const TRAFFIC_PAGE_SIZE = 50;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The Traffic page's time ranges (the API takes any `from`/`to`). */
export const TRAFFIC_RANGES = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "14d": 14 * 86_400_000 } as const;
export type TrafficRange = keyof typeof TRAFFIC_RANGES;

export type TrafficRawFilters = {
  agent?: string;
  service?: string;
  range?: string;
  has_error?: string;
  tool?: string;
  min_turns?: string;
  q?: string;
};

/**
 * The URL's filters (`agent`, `service`, `range`, `has_error`, `tool`, `min_turns`, `q`, `cursor`):
 * a value that does not parse is left out and reported on its field, so a hand-edited link shows
 * the list with the reason instead of an error page.
 */
export function trafficPageFilters(sp: SearchParams, now = Date.now()) {
  const raw: TrafficRawFilters = {
    agent: first(sp.agent) || undefined,
    service: first(sp.service) || undefined,
    range: first(sp.range) || undefined,
    has_error: first(sp.has_error) || undefined,
    tool: first(sp.tool) || undefined,
    min_turns: first(sp.min_turns) || undefined,
    q: first(sp.q) || undefined,
  };
  const errors: Record<string, string> = {};
  const candidate: Record<string, unknown> = {
    agent_id: raw.agent,
    service: raw.service,
    has_error: raw.has_error === "true" ? "true" : undefined,
    tool: raw.tool,
    min_turns: raw.min_turns,
    q: raw.q,
    cursor: first(sp.cursor) || undefined,
    limit: TRAFFIC_PAGE_SIZE,
  };
  if (raw.range) {
    if (Object.hasOwn(TRAFFIC_RANGES, raw.range)) candidate.from = new Date(now - TRAFFIC_RANGES[raw.range as TrafficRange]).toISOString();
    else errors.range = "Choose a time range from the list";
  }
  // Text PostgreSQL cannot compare (a NUL, a lone surrogate) is reported on its field, never sent.
  for (const issue of findInvalidText(candidate)) {
    const key = issue.path.split(".")[0]!;
    errors[key === "agent_id" ? "agent" : key] = issue.message;
    delete candidate[key];
  }
  const shape = conversationListQuery.shape;
  const query: Record<string, unknown> = {};
  const field: Record<string, keyof TrafficRawFilters | "cursor"> = {
    agent_id: "agent",
    service: "service",
    has_error: "has_error",
    tool: "tool",
    min_turns: "min_turns",
    q: "q",
    cursor: "cursor",
    from: "range",
  };
  for (const [key, value] of Object.entries(candidate)) {
    if (value === undefined) continue;
    const parsed = shape[key as keyof typeof shape].safeParse(value);
    // The value as given: the whole query is parsed once below (a parsed Date is no input).
    if (parsed.success) query[key] = value;
    else errors[field[key] ?? key] = parsed.error.issues[0]?.message ?? "Invalid value";
  }
  return { query: conversationListQuery.parse({ limit: TRAFFIC_PAGE_SIZE, ...query }), raw, errors };
}

async function loadTrafficPageUnscoped(ctx: WorkspaceContext, sp: SearchParams) {
  const { query, raw, errors } = trafficPageFilters(sp);
  const [page, services, agents] = await Promise.all([
    listConversations(ctx, query).catch((err: unknown) => {
      if (!(err instanceof DomainError)) throw err;
      // A cursor from another list, or an agent that is gone: the first page, with the reason.
      errors.cursor = err.message;
      return listConversations(ctx, { ...query, cursor: undefined, agent_id: undefined });
    }),
    listTrafficServices(ctx),
    listMappedAgents(ctx),
  ]);
  return { ...page, services, agents, raw, errors, canEdit: hasRole(ctx.role, "editor"), firstPage: !query.cursor };
}

async function loadConversationPageUnscoped(ctx: WorkspaceContext, id: string) {
  const conversation = await getConversation(ctx, id);
  return { conversation, canEdit: hasRole(ctx.role, "editor") };
}

// Each page loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadTrafficPage = scopedLoader(loadTrafficPageUnscoped);
export const loadConversationPage = scopedLoader(loadConversationPageUnscoped);

/**
 * The new-case page's draft when its URL names a conversation or a case result
 * (`?conversation=<id>` / `?case_result=<id>`, with `kind`, `outcomes=1`, `tool_params=1`):
 * null without one; `error` when it cannot be drafted (gone, or another workspace's).
 */
async function loadCaseDraftUnscoped(ctx: WorkspaceContext, suiteId: string, sp: SearchParams) {
  const conversation = first(sp.conversation);
  const caseResult = first(sp.case_result);
  if (!conversation && !caseResult) return null;
  const parsed = draftCaseInput.safeParse({
    suite_id: suiteId,
    kind: first(sp.kind) || undefined,
    draft_outcomes: first(sp.outcomes) === "1",
    tool_params: first(sp.tool_params) === "1",
  });
  if (!parsed.success) return { draft: null, error: parsed.error.issues[0]?.message ?? "Invalid draft options" };
  try {
    const draft = conversation
      ? await draftCaseFromConversation(ctx, conversation, parsed.data)
      : await draftCaseFromCaseResult(ctx, caseResult!, parsed.data);
    return { draft, error: null };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const what = conversation ? "conversation" : "case result";
    return {
      draft: null,
      error: err instanceof NotFoundError ? `The ${what} no longer exists (or is not in this workspace).` : err.message,
    };
  }
}

export const loadCaseDraft = scopedLoader(loadCaseDraftUnscoped);

/** A drafted case's origin with whether it is still retained (the case page links back only then). */
export const loadCaseSource = scopedLoader(async (ctx: WorkspaceContext, source: CaseSource | null) =>
  source ? { source, retained: await caseSourceRetained(ctx, source) } : null,
);
