import "server-only";
import { z } from "zod";
import { decryptSecret, secretHint } from "@/lib/crypto";
import { iso } from "@/lib/serialize";
import { logger } from "@/lib/logger";
import { maskUrl } from "@/lib/url-secrets";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { agentResource, agentUpdateResult } from "./openapi";
import { toolSchema, variableDefinitionSchema } from "./schemas";

/**
 * The agent's public shapes: the Prisma `select`, the row → DTO mapper (header values decrypted
 * only to be masked) and the DTO types. Server-only because the mapper decrypts; client
 * components import the types with `import type`.
 */

/** Includes the encrypted headers: they are decrypted only to mask them or for a run. */
export const agentSelect = {
  id: true,
  name: true,
  description: true,
  kind: true,
  systemPrompt: true,
  modelConfigId: true,
  tools: true,
  httpUrl: true,
  httpHeadersEncrypted: true,
  httpHeaderNames: true,
  httpTimeoutMs: true,
  httpRpm: true,
  httpTpm: true,
  httpMaxConcurrency: true,
  otelServiceName: true,
  variablesSchema: true,
  createdAt: true,
  updatedAt: true,
} as const;
export type AgentRow = Prisma.AgentGetPayload<{ select: typeof agentSelect }>;

/** The public (API and page) representation: header values are masked. */
export type AgentDto = z.output<typeof agentResource>;
/** What an update answers: the agent, plus what the update did that was not asked (headers dropped). */
export type AgentUpdateResult = z.output<typeof agentUpdateResult>;

/** What the executor needs: the agent with its real header values. Never send it to a client. */
export type AgentForRun = Omit<AgentDto, "created_at"> & {
  http: {
    url: string;
    headers: Record<string, string>;
    timeout_ms: number;
    rpm: number | null;
    tpm: number | null;
    max_concurrency: number | null;
  } | null;
};

const toolList = z.array(toolSchema);
const variableList = z.array(variableDefinitionSchema);

function storedList<T>(schema: z.ZodType<T[]>, value: unknown, what: string, id: string): T[] {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  logger.warn({ agentId: id, issues: parsed.error.issues.slice(0, 3) }, `stored agent ${what} do not match the schema`);
  return Array.isArray(value) ? (value as T[]) : [];
}

export function storedHeaders(row: Pick<AgentRow, "id" | "httpHeadersEncrypted" | "httpHeaderNames">): Record<string, string> | null {
  if (!row.httpHeadersEncrypted) return {};
  try {
    const value: unknown = JSON.parse(decryptSecret(row.httpHeadersEncrypted));
    return z.record(z.string(), z.string()).parse(value);
  } catch (err) {
    logger.warn({ agentId: row.id, err }, "stored agent headers cannot be decrypted");
    return null;
  }
}

export function maskHeaderValue(value: string): string {
  return secretHint(value);
}

export function toAgentData(row: AgentRow, headers: Record<string, string> | null) {
  return {
    name: row.name,
    description: row.description,
    kind: row.kind,
    system_prompt: row.systemPrompt,
    model_config_id: row.modelConfigId,
    tools: storedList(toolList, row.tools, "tools", row.id),
    http: row.httpUrl
      ? {
          url: row.httpUrl,
          // Undecryptable headers (secret rotated) show by name with an empty value to re-enter.
          headers: headers ?? Object.fromEntries(row.httpHeaderNames.map((n) => [n, ""])),
          timeout_ms: row.httpTimeoutMs ?? 30_000,
          rpm: row.httpRpm,
          tpm: row.httpTpm,
          max_concurrency: row.httpMaxConcurrency,
        }
      : null,
    variables_schema: storedList(variableList, row.variablesSchema, "variables", row.id),
    otel_service_name: row.otelServiceName,
  };
}

/**
 * `maskUrl` (members below admin): the HTTP URL's userinfo and query values show as "••••",
 * since agents behind Azure Functions and signed URLs carry their key there.
 */
export function toAgentDto(row: AgentRow, opts: { maskUrl?: boolean } = {}): AgentDto {
  const data = toAgentData(row, storedHeaders(row));
  const http = data.http && {
    ...data.http,
    url: opts.maskUrl ? maskUrl(data.http.url) : data.http.url,
    headers: Object.fromEntries(Object.entries(data.http.headers).map(([k, v]) => [k, v ? maskHeaderValue(v) : ""])),
  };
  return { id: row.id, ...data, http, created_at: iso(row.createdAt)!, updated_at: iso(row.updatedAt)! };
}

/** A row of the agent list page. */
export type AgentListItem = {
  id: string;
  name: string;
  description: string | null;
  kind: AgentDto["kind"];
  modelConfigName: string | null;
  httpUrl: string | null;
  toolCount: number;
  variableCount: number;
  suiteCount: number;
  updatedAt: string;
};
