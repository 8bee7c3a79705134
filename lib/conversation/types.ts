import type { CaseFilesPrompt, FileAttachment } from "@/lib/files/layout";
import type { FetchLike } from "@/lib/net/safe-fetch";
import type { LlmClient } from "@/lib/llm/client";
import type { RetryPolicy } from "@/lib/llm/retry";
import type { Endpoint, OnRecord, RateBudget } from "@/lib/llm/types";
import type { Persona } from "@/lib/test-cases/schemas";

/** One message of a case transcript (the public JSON shape stored on a case result). */
export type TranscriptMessage = {
  role: "system" | "user" | "assistant" | "tool";
  content: string | null;
  tool_calls?: { id: string; name: string; arguments: string }[];
  tool_call_id?: string;
  name?: string;
  /**
   * The case's files attached to this (first user) message, for display: the content already is
   * in `content` (lib/files/layout.ts); images are sent as parts but never stored here.
   */
  attachments?: FileAttachment[];
};

export type AgentTool = {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** A string (sent as-is), any JSON value (sent stringified), a matcher list, or null (unmocked). */
  mock_response: unknown;
};

/** The agent under test as the run snapshot describes it, with variable overrides applied. */
export type AgentRuntime =
  | {
      kind: "chat";
      endpoint: Endpoint;
      systemPrompt: string | null;
      tools: AgentTool[];
      /** Overrides the endpoint's default (e.g. a `Temperature` variable); null/undefined: endpoint default. */
      temperature?: number | null;
      maxTokens?: number | null;
      /** The model configuration is marked vision-capable (image files are sent as image parts). */
      supportsVision?: boolean;
      /** The model configuration's name (for messages). */
      modelConfigName?: string | null;
    }
  | { kind: "http"; url: string; headers: Record<string, string>; timeoutMs: number; budget?: RateBudget };

/** A tool call the agent made. `arguments` is the parsed JSON object when the agent sent valid JSON, else the raw string. */
export type ConversationToolCall = {
  id: string;
  name: string;
  arguments: Record<string, unknown> | string;
  /** Set when the call could not be answered (unknown or unmocked tool). */
  error?: string;
};

export type EndReason =
  "single_turn" | "simulator_ended" | "agent_ended" | "max_turns" | "safety_cap" | "repetition" | "token_cap" | "error";

export type ConversationErrorType = "agent" | "simulator" | "timeout" | "cancelled";

export type ConversationResult = {
  transcript: TranscriptMessage[];
  /** The agent's last reply ("" when it never replied). */
  finalResponse: string;
  toolCalls: ConversationToolCall[];
  /** Completed turns (one user message + the agent's reply). */
  turns: number;
  endReason: EndReason;
  /** A safety cap (the workspace's turn cap, or the token cap) ended the conversation, not the case's own max_turns. */
  capHit: boolean;
  /** The simulator's end_reason when it ended the conversation. */
  endDetail: string | null;
  /** Agent tokens. */
  promptTokens: number;
  completionTokens: number;
  /** Simulated-user tokens (counted against the token cap, not the agent). */
  simulatorPromptTokens: number;
  simulatorCompletionTokens: number;
  /** Sum of the agent calls' latencies, whole milliseconds. */
  agentLatencyMs: number;
  /** The same sum unrounded (the A/B engine keeps float milliseconds). */
  agentLatencyExactMs: number;
  /** Agent latency per turn (all agent calls of one turn, tool rounds included). */
  turnLatenciesMs: number[];
  /** Retries of all calls (agent and simulator). */
  retries: number;
  error: { type: ConversationErrorType; message: string } | null;
};

/** What the conversation reads from a test case (never its expected outcomes). */
export type ConversationCase = {
  id: string;
  name: string;
  persona: Persona | null;
  initial_message: string | null;
  user_context: Record<string, unknown> | null;
  max_turns: number | null;
};

export type ConversationInput = {
  agent: AgentRuntime;
  testCase: ConversationCase;
  variables?: Record<string, unknown>;
  runId: string;
  /** The simulated user's model (the suite's judge or simulator model); required for persona cases. */
  simulator?: LlmClient | null;
  /** The client of a chat agent; defaults to a new LlmClient for `agent.endpoint`. */
  agentClient?: LlmClient;
  /**
   * The workspace's safety cap on turns (default 30, at most MAX_SAFETY_CAP): bounds every
   * conversation whatever its max_turns; ending there is `safety_cap`, not `max_turns`.
   */
  safetyCap?: number;
  /** Total tokens (agent + simulator) after which the conversation ends; null: no cap. */
  tokenCap?: number | null;
  /** Tool-call rounds allowed within one agent turn (default 8). */
  maxToolRounds?: number;
  /** Per-attempt timeout of chat agent and simulator calls (default 30 s; HTTP agents use their own). */
  callTimeoutMs?: number;
  signal?: AbortSignal;
  onRecord?: OnRecord;
  /** HTTP agents: defaults to the guarded fetch for the agent's network policy. */
  fetch?: FetchLike;
  /** HTTP agents: retry policy overrides (tests). */
  retryPolicy?: Partial<RetryPolicy>;
  /**
   * The execution model files, already processed: appended to the first user message (whoever wrote it),
   * images sent as image parts to chat agents, `files` in HTTP agents' request bodies.
   */
  files?: CaseFilesPrompt | null;
};

export const DEFAULT_SAFETY_CAP = 30;
/** The highest workspace safety cap (turns). */
export const MAX_SAFETY_CAP = 200;
export const DEFAULT_MAX_TOOL_ROUNDS = 8;
