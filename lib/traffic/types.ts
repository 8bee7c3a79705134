/**
 * The shapes traffic ingestion passes between its steps: OTLP requests are decoded into
 * `ReceivedSpan`s (lib/traffic/otlp), stored, and the spans of one conversation are assembled
 * into an `AssembledConversation` (what the Traffic page shows and a drafted case is made from).
 */
import type { TranscriptMessage } from "@/lib/conversation/types";

/** An OTLP AnyValue as plain JSON: arrays and key-value lists become arrays and objects, bytes become base64. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

export type Attributes = Record<string, AttributeValue>;

/** One span as received, normalized from OTLP protobuf or JSON. */
export type ReceivedSpan = {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP SpanKind (0 unspecified … 5 consumer). */
  kind: number;
  /** Nanoseconds since the epoch, as a decimal string (they do not fit a double). */
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  /** The resource's `service.name`. */
  serviceName: string | null;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string | null };
  attributes: Attributes;
  resourceAttributes: Attributes;
  events: { name: string; timeUnixNano: string; attributes: Attributes }[];
  /** The instrumentation scope's name. */
  scope: string | null;
};

/** A tool the agent called in the conversation, with what it returned. */
export type ObservedToolCall = {
  id: string;
  name: string;
  /** Parsed JSON when the arguments were valid JSON, else the raw string. */
  arguments: Record<string, unknown> | string;
  result: string | null;
  error: string | null;
  durationMs: number | null;
};

/** One conversation as its spans tell it. */
export type AssembledConversation = {
  /** System, user, assistant and tool messages in order, the shape of a case transcript. */
  messages: TranscriptMessage[];
  toolCalls: ObservedToolCall[];
  /** Distinct tool names, in first-use order. */
  toolNames: string[];
  userTurns: number;
  /** The user messages joined by newlines (what text search looks in). */
  userText: string;
  /** The model of the last model call (response model, else request model). */
  model: string | null;
  inputTokens: number;
  outputTokens: number;
  /** Time the agent spent answering: the agent-turn spans' durations, else the model calls'. */
  latencyMs: number;
  startedAt: Date;
  endedAt: Date;
  hasError: boolean;
  /** One line per span that ended in error ("span name: message"). */
  errors: string[];
  serviceName: string | null;
  /** Model calls seen (LLM spans). */
  llmCalls: number;
};
