/**
 * Agents: the chat and HTTP agents a workspace tests — list, read, create, update, delete, and
 * `resolveAgentForRun`, the run-time view with HTTP header values decrypted. Called by the agent
 * pages and actions, /api/v1/agents, the demo seed and the case runner. Every query is scoped by
 * `workspaceId`; header values are stored encrypted and leave this module masked (only the
 * executor gets them in clear), and HTTP URLs are checked against the workspace's network policy.
 */
import "server-only";
import { db } from "@/lib/db";
import { ConflictError, isUniqueViolation, NotFoundError, ValidationError, zodIssues } from "@/lib/errors";
import { encryptSecret } from "@/lib/crypto";
import { pageByName, iso } from "@/lib/serialize";
import { requireRole, hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { maskUrl, sameOrigin } from "@/lib/url-secrets";
import { isUuid } from "@/lib/ids";
import { refusedUrlIssue } from "@/lib/net/service";
import type { Prisma } from "@/lib/generated/prisma/client";
import { agentInput, type AgentData } from "./schemas";
import {
  agentSelect,
  maskHeaderValue,
  storedHeaders,
  toAgentData,
  toAgentDto,
  type AgentDto,
  type AgentForRun,
  type AgentRow,
  type AgentUpdateResult,
} from "./dto";

/** Only admins see HTTP URLs unmasked (their query may hold a key); editors send the masked form back to keep it. */
const dtoFor = (ctx: WorkspaceContext) => {
  const mask = !hasRole(ctx.role, "admin");
  return (row: AgentRow) => toAgentDto(row, { maskUrl: mask });
};
import { headerIssues } from "./rules";

export async function listAgents(ctx: WorkspaceContext, opts: { cursor?: string; limit?: number } = {}) {
  const { page, next_cursor } = await pageByName(opts, (query) =>
    db.agent.findMany({ ...query, where: { workspaceId: ctx.workspaceId, ...query.where }, select: agentSelect }),
  );
  return { data: page.map(dtoFor(ctx)), nextCursor: next_cursor };
}

async function findRow(workspaceId: string, id: string): Promise<AgentRow> {
  if (!isUuid(id)) throw new NotFoundError("Agent");
  const row = await db.agent.findFirst({ where: { id, workspaceId }, select: agentSelect });
  if (!row) throw new NotFoundError("Agent");
  return row;
}

export async function getAgent(ctx: WorkspaceContext, id: string): Promise<AgentDto> {
  return dtoFor(ctx)(await findRow(ctx.workspaceId, id));
}

/** Workspace checks the schema cannot do: the model configuration's workspace, the URL policy, headers. */
async function assertWorkspaceRules(ctx: WorkspaceContext, data: AgentData) {
  const issues = headerIssues(data.http?.headers);
  if (data.model_config_id) {
    const config = await db.modelConfig.findFirst({
      where: { id: data.model_config_id, workspaceId: ctx.workspaceId },
      select: { id: true },
    });
    if (!config) issues.push({ path: "model_config_id", message: "Choose a model configuration of this workspace" });
  }
  const refused = data.http && refusedUrlIssue(data.http.url, "http.url");
  if (refused) issues.push(refused);
  if (issues.length) throw new ValidationError("Please fix the highlighted fields", issues);
}

function rowData(data: AgentData) {
  const headers = data.http?.headers ?? {};
  return {
    name: data.name,
    description: data.description,
    kind: data.kind,
    systemPrompt: data.system_prompt,
    modelConfigId: data.model_config_id,
    tools: data.tools as Prisma.InputJsonValue,
    httpUrl: data.http?.url ?? null,
    httpHeadersEncrypted: Object.keys(headers).length ? encryptSecret(JSON.stringify(headers)) : null,
    httpHeaderNames: Object.keys(headers),
    httpTimeoutMs: data.http?.timeout_ms ?? null,
    httpRpm: data.http?.rpm ?? null,
    httpTpm: data.http?.tpm ?? null,
    httpMaxConcurrency: data.http?.max_concurrency ?? null,
    variablesSchema: data.variables_schema as Prisma.InputJsonValue,
    otelServiceName: data.otel_service_name,
  };
}

function conflictOnName(err: unknown, name: string): never {
  if (isUniqueViolation(err) && /otelServiceName/.test(String((err as { meta?: { target?: unknown } }).meta?.target ?? ""))) {
    throw new ConflictError("Another agent already has this OpenTelemetry service name", [
      { path: "otel_service_name", message: "Another agent already has this service name" },
    ]);
  }
  if (isUniqueViolation(err)) {
    throw new ConflictError(`An agent named "${name}" already exists`, [
      { path: "name", message: "An agent with this name already exists" },
    ]);
  }
  throw err;
}

export async function createAgent(ctx: WorkspaceContext, data: AgentData): Promise<AgentDto> {
  requireRole(ctx, "editor");
  await assertWorkspaceRules(ctx, data);
  try {
    const row = await db.agent.create({ data: { workspaceId: ctx.workspaceId, ...rowData(data) }, select: agentSelect });
    return dtoFor(ctx)(row);
  } catch (err) {
    conflictOnName(err, data.name);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * PATCH semantics: the given fields replace the stored ones (`http` merges one level deep),
 * then the whole agent is validated with `agentInput`. A header whose value equals its masked
 * form ("••••1234") keeps the stored value, and a URL equal to its masked form keeps the stored
 * URL, so a client can send back what it read. Secrets follow their host: when the URL moves to
 * another origin (scheme, host, port), stored header values are dropped unless the request gives
 * new ones; the answer lists what was dropped in `warnings`.
 */
export async function updateAgent(ctx: WorkspaceContext, id: string, patch: unknown): Promise<AgentUpdateResult> {
  requireRole(ctx, "editor");
  if (!isObject(patch)) throw new ValidationError("The update must be a JSON object", [{ path: "", message: "Expected an object" }]);
  const row = await findRow(ctx.workspaceId, id);
  const storedHeaderValues = storedHeaders(row) ?? {};
  const current: Record<string, unknown> = toAgentData(row, storedHeaderValues);
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    merged[key] = key === "http" && isObject(value) && isObject(current.http) ? { ...current.http, ...value } : value;
  }
  const storedUrl = row.httpUrl;
  const warnings: string[] = [];
  if (isObject(merged.http) && storedUrl) {
    const url = merged.http.url;
    if (typeof url === "string" && url !== storedUrl && url === maskUrl(storedUrl)) merged.http = { ...merged.http, url: storedUrl };
  }
  const movedOrigin =
    isObject(merged.http) && typeof merged.http.url === "string" && storedUrl !== null && !sameOrigin(merged.http.url, storedUrl);
  if (isObject(merged.http) && isObject(merged.http.headers)) {
    if (movedOrigin) {
      const { headers, dropped } = dropStoredHeaders(merged.http.headers, storedHeaderValues, hasHttpHeaders(patch));
      merged.http = { ...merged.http, headers };
      if (dropped.length) warnings.push(`http.headers ${dropped.join(", ")} cleared because http.url changed origin`);
    } else {
      merged.http = { ...merged.http, headers: unmaskHeaders(merged.http.headers, storedHeaderValues) };
    }
  }
  const parsed = agentInput.safeParse(merged);
  if (!parsed.success) throw new ValidationError("Please fix the highlighted fields", zodIssues(parsed.error));
  await assertWorkspaceRules(ctx, parsed.data);
  try {
    const { count } = await db.agent.updateMany({ where: { id, workspaceId: ctx.workspaceId }, data: rowData(parsed.data) });
    if (count === 0) throw new NotFoundError("Agent");
  } catch (err) {
    conflictOnName(err, parsed.data.name);
  }
  const agent = await getAgent(ctx, id);
  return warnings.length ? { ...agent, warnings } : agent;
}

const hasHttpHeaders = (patch: Record<string, unknown>) => isObject(patch.http) && patch.http.headers !== undefined;

/**
 * The headers to keep when the URL moved to another origin: only values given in this request.
 * Headers carried over from the stored agent (no `headers` in the patch) and values sent back in
 * their masked form are the old host's secrets, so they are dropped (by name, for `warnings`).
 */
function dropStoredHeaders(headers: Record<string, unknown>, stored: Record<string, string>, given: boolean) {
  const byLower = new Map(Object.entries(stored).map(([k, v]) => [k.toLowerCase(), v]));
  const kept: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const original = stored[name] ?? byLower.get(name.toLowerCase());
    const isStored = original !== undefined && (!given || value === maskHeaderValue(original));
    if (isStored) dropped.push(name);
    else kept[name] = value;
  }
  return { headers: kept, dropped };
}

function unmaskHeaders(headers: Record<string, unknown>, stored: Record<string, string>): Record<string, unknown> {
  const byLower = new Map(Object.entries(stored).map(([k, v]) => [k.toLowerCase(), v]));
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => {
      const original = stored[name] ?? byLower.get(name.toLowerCase());
      return [name, original !== undefined && value === maskHeaderValue(original) ? original : value];
    }),
  );
}

/**
 * Deleting an agent deletes its suites with their cases and run history (cascade), so it is
 * refused with 409 while the agent has live suites. Suites already in the trash go with it.
 */
export async function deleteAgent(ctx: WorkspaceContext, id: string): Promise<void> {
  requireRole(ctx, "editor");
  await findRow(ctx.workspaceId, id);
  await db.$transaction(async (tx) => {
    const live = await tx.suite.count({ where: { workspaceId: ctx.workspaceId, agentId: id, deletedAt: null } });
    if (live > 0) {
      throw new ConflictError(
        `This agent has ${live} suite${live === 1 ? "" : "s"}. Delete ${live === 1 ? "it" : "them"} first; deleting the agent would remove their test cases and run history.`,
      );
    }
    const { count } = await tx.agent.deleteMany({ where: { id, workspaceId: ctx.workspaceId } });
    if (count === 0) throw new NotFoundError("Agent");
  });
}

/** Service-only (the executor): the agent with decrypted header values. */
export async function resolveAgentForRun(workspaceId: string, id: string): Promise<AgentForRun> {
  const row = await findRow(workspaceId, id);
  const headers = storedHeaders(row);
  if (headers === null) {
    throw new ValidationError(
      "The agent's stored headers can no longer be decrypted (ASSAY_SECRET or AUTH_SECRET changed). Enter them again.",
      [{ path: "http.headers", message: "Enter the header values again" }],
    );
  }
  return { id: row.id, ...toAgentData(row, headers), updated_at: iso(row.updatedAt)! };
}

/** Live suites per agent (the list page shows them; delete is refused while there are any). */
export async function agentSuiteCounts(ctx: WorkspaceContext, ids: string[]): Promise<Map<string, number>> {
  const rows = ids.length
    ? await db.suite.groupBy({
        by: ["agentId"],
        where: { workspaceId: ctx.workspaceId, deletedAt: null, agentId: { in: ids } },
        _count: { _all: true },
      })
    : [];
  return new Map(rows.map((r) => [r.agentId, r._count._all]));
}
