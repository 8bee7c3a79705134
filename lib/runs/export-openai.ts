import "server-only";
import { db } from "@/lib/db";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { requireRole, type WorkspaceContext } from "@/lib/auth/roles";
import { withWorkspaceScope } from "@/lib/tenant-scope";
import { textStream } from "@/lib/api/stream";
import type { AgentTool, TranscriptMessage } from "@/lib/conversation/types";

/**
 * A run's transcripts as OpenAI chat JSONL (GET /api/v1/runs/{id}/export?format=openai-jsonl): one
 * `{"messages": [...], "tools": [...]}` per finished case result (every trial its own line), in
 * the shape OpenAI's fine-tuning and Evals APIs read — assistant tool calls as
 * `{id, type: "function", function: {name, arguments}}`, tool results as `tool` messages, the
 * agent's tools as function definitions. Results that never got an answer (errors, skipped,
 * unfinished) have no conversation to learn from and are left out. Streamed a page at a time.
 */

const PAGE_SIZE = 200;

type OpenAiMessage =
  | { role: "system" | "user"; content: string }
  | {
      role: "assistant";
      content: string | null;
      tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
    }
  | { role: "tool"; tool_call_id: string; content: string };

export type OpenAiChatLine = {
  messages: OpenAiMessage[];
  tools?: { type: "function"; function: { name: string; description: string; parameters: Record<string, unknown> } }[];
};

/** One case result's transcript → one JSONL record (pure; the stored transcript shape is lib/conversation/types.ts). */
export function openAiChatLine(transcript: readonly TranscriptMessage[], tools: readonly AgentTool[]): OpenAiChatLine {
  const messages: OpenAiMessage[] = [];
  for (const m of transcript) {
    if (m.role === "assistant") {
      const calls = (m.tool_calls ?? []).map((c) => ({
        id: c.id,
        type: "function" as const,
        function: { name: c.name, arguments: c.arguments },
      }));
      messages.push({ role: "assistant", content: m.content ?? null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
    } else if (m.role === "tool") {
      messages.push({ role: "tool", tool_call_id: m.tool_call_id ?? "", content: m.content ?? "" });
    } else {
      messages.push({ role: m.role, content: m.content ?? "" });
    }
  }
  const definitions = tools.map((t) => ({
    type: "function" as const,
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  return { messages, ...(definitions.length > 0 ? { tools: definitions } : {}) };
}

function snapshotTools(agentSnapshot: unknown): AgentTool[] {
  const tools = (agentSnapshot as { tools?: unknown } | null)?.tools;
  return Array.isArray(tools) ? (tools.filter((t) => t && typeof t === "object" && typeof t.name === "string") as AgentTool[]) : [];
}

export async function exportRunOpenAiJsonl(ctx: WorkspaceContext, runId: string) {
  requireRole(ctx, "viewer");
  if (!isUuid(runId)) throw new NotFoundError("Run");
  const run = await db.run.findFirst({ where: { id: runId, workspaceId: ctx.workspaceId }, select: { number: true, agentSnapshot: true } });
  if (!run) throw new NotFoundError("Run");
  const tools = snapshotTools(run.agentSnapshot);

  async function* lines() {
    let last: { position: number; id: string } | null = null;
    for (;;) {
      const after: { position: number; id: string } | null = last;
      // Read when the stream wants it, after the route handler returned: re-enter the workspace scope.
      const rows: { id: string; position: number; transcript: unknown }[] = await withWorkspaceScope(ctx.workspaceId, () =>
        db.caseResult.findMany({
          where: {
            runId,
            workspaceId: ctx.workspaceId,
            status: { in: ["passed", "failed"] },
            ...(after ? { OR: [{ position: { gt: after.position } }, { position: after.position, id: { gt: after.id } }] } : {}),
          },
          orderBy: [{ position: "asc" }, { id: "asc" }],
          take: PAGE_SIZE,
          select: { id: true, position: true, transcript: true },
        }),
      );
      if (rows.length === 0) return;
      yield rows
        .filter((r) => Array.isArray(r.transcript) && r.transcript.length > 0)
        .map((r) => `${JSON.stringify(openAiChatLine(r.transcript as TranscriptMessage[], tools))}\n`)
        .join("");
      if (rows.length < PAGE_SIZE) return;
      last = { position: rows[rows.length - 1]!.position, id: rows[rows.length - 1]!.id };
    }
  }
  return {
    body: textStream(lines(), { runId }),
    filename: `run-${run.number}-transcripts.jsonl`,
    content_type: "application/x-ndjson; charset=utf-8",
  };
}
