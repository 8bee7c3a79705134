/**
 * Model configurations: the OpenAI-compatible endpoints (base URL, model, encrypted API key,
 * default temperature and max tokens) that agents, judges and simulators use — list, read,
 * create, update, delete, usage counts, the connection test, and `resolveModelEndpoint`, the one
 * place a key is decrypted for a call. Called by the model configuration pages and actions,
 * /api/v1/model-configs, the demo seed and the case runner. Every query is scoped by
 * `workspaceId`; the API key never leaves in clear (only a hint).
 */
import "server-only";
import { db } from "@/lib/db";
import { ConflictError, isUniqueViolation, NotFoundError, ValidationError } from "@/lib/errors";
import { decryptSecret, encryptSecret, secretHint } from "@/lib/crypto";
import { pageByName } from "@/lib/serialize";
import { requireRole, hasRole, type WorkspaceContext } from "@/lib/auth/roles";
import { maskUrl, sameOrigin } from "@/lib/url-secrets";
import { isUuid } from "@/lib/ids";
import { networkPolicy, refusedUrlIssue } from "@/lib/net/service";
import { checkConnection, type ModelEndpoint } from "./connection";
import type { ModelConfigData } from "./schemas";
import { modelConfigSelect, toModelConfigDto, type ConnectionResult, type ModelConfigDto, type ModelConfigUpdateResult } from "./dto";

/** Only those who manage configurations (admins) see base URLs unmasked. */
const dtoFor = (ctx: WorkspaceContext) => {
  const mask = !hasRole(ctx.role, "admin");
  return (row: Parameters<typeof toModelConfigDto>[0]) => toModelConfigDto(row, { maskUrl: mask });
};

export type { ModelEndpoint } from "./connection";

export async function listModelConfigs(ctx: WorkspaceContext, opts: { cursor?: string; limit?: number } = {}) {
  const { page, next_cursor } = await pageByName(opts, (query) =>
    db.modelConfig.findMany({ ...query, where: { workspaceId: ctx.workspaceId, ...query.where }, select: modelConfigSelect }),
  );
  return { data: page.map(dtoFor(ctx)), nextCursor: next_cursor };
}

/** Id, name and model of every configuration, for pickers. */
export async function listModelConfigOptions(ctx: WorkspaceContext) {
  return db.modelConfig.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: { id: true, name: true, model: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
  });
}

export async function getModelConfig(ctx: WorkspaceContext, id: string): Promise<ModelConfigDto> {
  if (!isUuid(id)) throw new NotFoundError("Model configuration");
  const row = await db.modelConfig.findFirst({ where: { id, workspaceId: ctx.workspaceId }, select: modelConfigSelect });
  if (!row) throw new NotFoundError("Model configuration");
  return dtoFor(ctx)(row);
}

/** How many agents and live suites (as judge or simulator) use each configuration. */
export async function modelConfigUsage(ctx: WorkspaceContext, ids: string[]): Promise<Map<string, { agents: number; suites: number }>> {
  const usage = new Map(ids.map((id) => [id, { agents: 0, suites: 0 }]));
  if (ids.length === 0) return usage;
  const [agents, suites] = await Promise.all([
    db.agent.groupBy({
      by: ["modelConfigId"],
      where: { workspaceId: ctx.workspaceId, modelConfigId: { in: ids } },
      _count: { _all: true },
    }),
    db.suite.findMany({
      where: {
        workspaceId: ctx.workspaceId,
        deletedAt: null,
        OR: [{ llmJudgeModelConfigId: { in: ids } }, { simulatorModelConfigId: { in: ids } }],
      },
      select: { llmJudgeModelConfigId: true, simulatorModelConfigId: true },
    }),
  ]);
  for (const a of agents) if (a.modelConfigId) usage.get(a.modelConfigId)!.agents = a._count._all;
  for (const s of suites) {
    const configs = new Set([s.llmJudgeModelConfigId, s.simulatorModelConfigId]);
    for (const c of configs) if (c && usage.has(c)) usage.get(c)!.suites++;
  }
  return usage;
}

function assertBaseUrlAllowed(baseUrl: string) {
  const refused = refusedUrlIssue(baseUrl, "base_url");
  if (refused) throw new ValidationError("This address is not allowed", [refused]);
}

function conflictOnName(err: unknown, name: string | undefined): never {
  if (isUniqueViolation(err)) {
    throw new ConflictError(`A model configuration named "${name}" already exists`, [
      { path: "name", message: "A model configuration with this name already exists" },
    ]);
  }
  throw err;
}

/** `undefined` keeps the stored key; null or blank removes it; a string replaces it. */
function apiKeyData(apiKey: string | null | undefined) {
  if (apiKey === undefined) return {};
  const key = apiKey?.trim() ?? "";
  if (key === "") return { apiKeyEncrypted: null, apiKeyHint: null };
  return { apiKeyEncrypted: encryptSecret(key), apiKeyHint: secretHint(key) };
}

export async function createModelConfig(ctx: WorkspaceContext, input: ModelConfigData): Promise<ModelConfigDto> {
  requireRole(ctx, "admin");
  assertBaseUrlAllowed(input.base_url);
  try {
    const row = await db.modelConfig.create({
      data: {
        workspaceId: ctx.workspaceId,
        name: input.name,
        baseUrl: input.base_url,
        model: input.model,
        embeddingModel: input.embedding_model,
        temperature: input.temperature,
        maxTokens: input.max_tokens,
        inputPricePerMtok: input.input_price_per_mtok ?? null,
        outputPricePerMtok: input.output_price_per_mtok ?? null,
        supportsVision: input.supports_vision ?? false,
        rpm: input.rpm ?? null,
        tpm: input.tpm ?? null,
        maxConcurrency: input.max_concurrency ?? null,
        ...apiKeyData(input.api_key),
      },
      select: modelConfigSelect,
    });
    return toModelConfigDto(row);
  } catch (err) {
    conflictOnName(err, input.name);
  }
}

export type ModelConfigUpdate = Partial<ModelConfigData>;

/**
 * Partial update: fields left out keep their values (the API key too, see `apiKeyData`), except
 * that a base URL on another origin (scheme, host, port) drops the stored key unless the same
 * request gives one: the key was meant for the old host. The answer then lists it in `warnings`.
 * A base URL sent back in its masked form ("?code=••••") keeps the stored URL.
 */
export async function updateModelConfig(ctx: WorkspaceContext, id: string, input: ModelConfigUpdate): Promise<ModelConfigUpdateResult> {
  requireRole(ctx, "admin");
  if (!isUuid(id)) throw new NotFoundError("Model configuration");
  const stored = await db.modelConfig.findFirst({
    where: { id, workspaceId: ctx.workspaceId },
    select: { baseUrl: true, apiKeyHint: true },
  });
  if (!stored) throw new NotFoundError("Model configuration");
  const patch = { ...input };
  if (patch.base_url !== undefined && patch.base_url !== stored.baseUrl && patch.base_url === maskUrl(stored.baseUrl))
    patch.base_url = stored.baseUrl;
  const warnings: string[] = [];
  if (
    patch.base_url !== undefined &&
    !sameOrigin(patch.base_url, stored.baseUrl) &&
    patch.api_key === undefined &&
    stored.apiKeyHint !== null
  ) {
    patch.api_key = null;
    warnings.push("api_key cleared because base_url changed origin");
  }
  if (patch.base_url !== undefined) assertBaseUrlAllowed(patch.base_url);
  try {
    const { count } = await db.modelConfig.updateMany({
      where: { id, workspaceId: ctx.workspaceId },
      data: {
        name: patch.name,
        baseUrl: patch.base_url,
        model: patch.model,
        embeddingModel: patch.embedding_model,
        temperature: patch.temperature,
        maxTokens: patch.max_tokens,
        inputPricePerMtok: patch.input_price_per_mtok,
        outputPricePerMtok: patch.output_price_per_mtok,
        supportsVision: patch.supports_vision,
        rpm: patch.rpm,
        tpm: patch.tpm,
        maxConcurrency: patch.max_concurrency,
        ...apiKeyData(patch.api_key),
      },
    });
    if (count === 0) throw new NotFoundError("Model configuration");
  } catch (err) {
    conflictOnName(err, patch.name);
  }
  const config = await getModelConfig(ctx, id);
  return warnings.length ? { ...config, warnings } : config;
}

/**
 * Deleting a configuration that agents or live suites use would silently leave them without
 * a model (the foreign keys are SET NULL), so it is refused with 409 and the usage counts
 * unless `force` is set.
 */
export async function deleteModelConfig(ctx: WorkspaceContext, id: string, opts: { force?: boolean } = {}): Promise<void> {
  requireRole(ctx, "admin");
  await getModelConfig(ctx, id);
  await db.$transaction(async (tx) => {
    if (!opts.force) {
      // One after the other: an interactive transaction has one connection, and pg refuses
      // (today: warns about) a query sent while another is still running on it.
      const agents = await tx.agent.count({ where: { workspaceId: ctx.workspaceId, modelConfigId: id } });
      const suites = await tx.suite.count({
        where: { workspaceId: ctx.workspaceId, deletedAt: null, OR: [{ llmJudgeModelConfigId: id }, { simulatorModelConfigId: id }] },
      });
      if (agents + suites > 0) {
        const parts = [
          agents ? `${agents} agent${agents === 1 ? "" : "s"}` : null,
          suites ? `${suites} suite${suites === 1 ? "" : "s"}` : null,
        ];
        throw new ConflictError(
          `This model configuration is used by ${parts.filter(Boolean).join(" and ")}. Delete with force to leave them without a model configuration.`,
        );
      }
    }
    const { count } = await tx.modelConfig.deleteMany({ where: { id, workspaceId: ctx.workspaceId } });
    if (count === 0) throw new NotFoundError("Model configuration");
  });
}

/**
 * Service-only (the executor): the endpoint with its decrypted API key. Never send its
 * result to a page or an API response.
 */
export async function resolveModelEndpoint(workspaceId: string, id: string): Promise<ModelEndpoint> {
  if (!isUuid(id)) throw new NotFoundError("Model configuration");
  const row = await db.modelConfig.findFirst({
    where: { id, workspaceId },
    select: {
      baseUrl: true,
      model: true,
      embeddingModel: true,
      apiKeyEncrypted: true,
      temperature: true,
      maxTokens: true,
      rpm: true,
      tpm: true,
      maxConcurrency: true,
    },
  });
  if (!row) throw new NotFoundError("Model configuration");
  return {
    baseUrl: row.baseUrl,
    model: row.model,
    embeddingModel: row.embeddingModel,
    apiKey: row.apiKeyEncrypted ? decryptStoredKey(row.apiKeyEncrypted) : null,
    temperature: row.temperature,
    maxTokens: row.maxTokens,
    limits: { rpm: row.rpm, tpm: row.tpm, maxConcurrency: row.maxConcurrency },
  };
}

function decryptStoredKey(sealed: string): string {
  try {
    return decryptSecret(sealed);
  } catch {
    throw new ValidationError(
      "The stored API key can no longer be decrypted (ASSAY_SECRET or AUTH_SECRET changed). Enter the API key again.",
      [{ path: "api_key", message: "Enter the API key again" }],
    );
  }
}

/** Calls the saved endpoint with a one-token completion (admins only: it uses the stored key). */
export async function testConnection(ctx: WorkspaceContext, id: string): Promise<ConnectionResult> {
  requireRole(ctx, "admin");
  const endpoint = await resolveModelEndpoint(ctx.workspaceId, id);
  return checkConnection(endpoint, networkPolicy());
}
