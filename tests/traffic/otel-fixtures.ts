/**
 * Real OpenTelemetry traffic for tests: spans are made with the OpenTelemetry JS SDK and sent by
 * its real OTLP/HTTP exporters (protobuf or JSON) to a URL, as an instrumented agent would send
 * them to Assay. Each `emit…` helper returns what it sent, so a test can compare what Assay
 * assembled field by field. `startOtlpCapture` is a loopback server that keeps request bodies
 * (for decoding tests without the route).
 */
import http from "node:http";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll } from "vitest";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span, type Tracer } from "@opentelemetry/api";
import { OTLPTraceExporter as JsonTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { OTLPTraceExporter as ProtobufTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import type { TranscriptMessage } from "@/lib/conversation/types";

export type OtlpTarget = { url: string; headers?: Record<string, string>; encoding: "protobuf" | "json" };

/** What an `emit…` helper sent: the conversation Assay should assemble from it. */
export type SentConversation = {
  /** The conversation id on the spans (null: the fixture relies on grouping by trace). */
  conversationId: string | null;
  serviceName: string;
  messages: TranscriptMessage[];
  toolCalls: { id: string; name: string; arguments: Record<string, unknown>; result: string | null; error: string | null }[];
  model: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  userTurns: number;
  errors: string[];
  llmCalls: number;
  spanCount: number;
  traceIds: string[];
  startedAt: Date;
  endedAt: Date;
};

type Timed = { start: number; end: number };

/** Makes spans with the SDK (`build` gets a tracer and the helpers below) and exports them with the real exporter. */
export async function exportSpans(
  target: OtlpTarget,
  serviceName: string,
  build: (tracer: Tracer) => void,
): Promise<{ spanCount: number; traceIds: string[] }> {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": serviceName, "service.version": "1.4.2" }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  build(provider.getTracer("assay-test-agent", "0.1.0"));
  await provider.forceFlush();
  const spans = memory.getFinishedSpans();
  const config = { url: target.url, headers: target.headers ?? {} };
  const exporter = target.encoding === "protobuf" ? new ProtobufTraceExporter(config) : new JsonTraceExporter(config);
  await new Promise<void>((resolve, reject) => {
    exporter.export(spans, (result) => {
      if (result.code === 0) resolve();
      else reject(result.error ?? new Error(`OTLP export to ${target.url} failed`));
    });
  });
  await exporter.shutdown();
  await provider.shutdown();
  return { spanCount: spans.length, traceIds: [...new Set(spans.map((span) => span.spanContext().traceId))] };
}

/** Starts and ends a span at given times (ms since epoch), under `parent` or as a new trace's root. */
export function timedSpan(
  tracer: Tracer,
  name: string,
  time: Timed,
  attributes: Attributes,
  parent: Span | null,
  body?: (span: Span) => void,
): Span {
  const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
  const span = tracer.startSpan(
    name,
    { kind: parent ? SpanKind.CLIENT : SpanKind.SERVER, attributes, startTime: new Date(time.start) },
    context,
  );
  body?.(span);
  return span;
}

function endAt(span: Span, time: Timed): void {
  span.end(new Date(time.end));
}

const SYSTEM = "You are a travel assistant. Use the tools for live data.";
const WEATHER_ARGS = { city: "Paris", date: "Friday" };
const WEATHER_RESULT = "Rain, 14°C";

/** GenAI message JSON (semantic conventions 1.37+): `{role, parts}`. */
function genAiText(role: string, content: string, finishReason?: string) {
  return { role, parts: [{ type: "text", content }], ...(finishReason ? { finish_reason: finishReason } : {}) };
}

/**
 * A three-turn conversation with a tool call, as the GenAI semantic conventions describe it: one
 * trace per user turn, an `invoke_agent` span per turn (with the turn's token totals, which must
 * not be counted twice) around `chat` spans carrying `gen_ai.input.messages` / `gen_ai.output.messages`,
 * and an `execute_tool` span in the second turn.
 */
export async function emitThreeTurnConversation(
  target: OtlpTarget,
  options: { conversationId?: string; serviceName?: string; startAt?: Date } = {},
): Promise<SentConversation> {
  const conversationId = options.conversationId ?? `conv-${crypto.randomUUID()}`;
  const serviceName = options.serviceName ?? "travel-agent";
  const base = (options.startAt ?? new Date(Date.now() - 60_000)).getTime();
  const at = (start: number, end: number): Timed => ({ start: base + start, end: base + end });
  const requestModel = "gpt-4o";
  const responseModel = "gpt-4o-2024-08-06";

  const user1 = "Hi, I'm flying to Paris on Friday.";
  const answer1 = "Great! How can I help with your Paris trip?";
  const user2 = "What's the weather there on Friday?";
  const answer2 = "Friday in Paris: rain and 14°C, so pack an umbrella.";
  const user3 = "Thanks, that's all.";
  const answer3 = "Have a good trip!";
  const callId = "call_weather_1";
  const toolCallPart = { type: "tool_call", id: callId, name: "get_weather", arguments: WEATHER_ARGS };
  const toolResponse = { role: "tool", parts: [{ type: "tool_call_response", id: callId, response: WEATHER_RESULT }] };
  const system = JSON.stringify([{ type: "text", content: SYSTEM }]);

  const common = { "gen_ai.conversation.id": conversationId, "gen_ai.provider.name": "openai" };
  const chat = (input: unknown[], output: unknown[], inputTokens: number, outputTokens: number): Attributes => ({
    ...common,
    "gen_ai.operation.name": "chat",
    "gen_ai.request.model": requestModel,
    "gen_ai.response.model": responseModel,
    "gen_ai.system_instructions": system,
    "gen_ai.input.messages": JSON.stringify(input),
    "gen_ai.output.messages": JSON.stringify(output),
    "gen_ai.usage.input_tokens": inputTokens,
    "gen_ai.usage.output_tokens": outputTokens,
  });
  const agent = (inputTokens: number, outputTokens: number): Attributes => ({
    ...common,
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": "Travel assistant",
    "gen_ai.usage.input_tokens": inputTokens,
    "gen_ai.usage.output_tokens": outputTokens,
  });

  const history1 = [genAiText("user", user1)];
  const history2 = [...history1, genAiText("assistant", answer1), genAiText("user", user2)];
  const toolTurn = { role: "assistant", parts: [toolCallPart], finish_reason: "tool_call" };
  const history3 = [...history2, toolTurn, toolResponse, genAiText("assistant", answer2), genAiText("user", user3)];

  const { spanCount, traceIds } = await exportSpans(target, serviceName, (tracer) => {
    // A turn's invoke_agent span (ended by the caller once its children are), and a model call
    // under it, ended at once.
    const agentTurn = (time: Timed, inputTokens: number, outputTokens: number) =>
      timedSpan(tracer, "invoke_agent Travel assistant", time, agent(inputTokens, outputTokens), null);
    const modelCall = (time: Timed, input: unknown[], output: unknown[], inputTokens: number, outputTokens: number, parent: Span) =>
      endAt(timedSpan(tracer, `chat ${requestModel}`, time, chat(input, output, inputTokens, outputTokens), parent), time);

    const turn1 = at(0, 1_000);
    const agent1 = agentTurn(turn1, 50, 12);
    modelCall(at(100, 900), history1, [genAiText("assistant", answer1, "stop")], 50, 12, agent1);
    endAt(agent1, turn1);

    const turn2 = at(10_000, 13_000);
    const agent2 = agentTurn(turn2, 200, 45);
    modelCall(at(10_100, 11_000), history2, [toolTurn], 80, 20, agent2);
    const tool = timedSpan(
      tracer,
      "execute_tool get_weather",
      at(11_000, 11_250),
      {
        ...common,
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "get_weather",
        "gen_ai.tool.call.id": callId,
        "gen_ai.tool.call.arguments": JSON.stringify(WEATHER_ARGS),
        "gen_ai.tool.call.result": WEATHER_RESULT,
      },
      agent2,
    );
    endAt(tool, at(11_000, 11_250));
    const afterTool = [...history2, toolTurn, toolResponse];
    modelCall(at(11_300, 12_900), afterTool, [genAiText("assistant", answer2, "stop")], 120, 25, agent2);
    endAt(agent2, turn2);

    const turn3 = at(30_000, 30_800);
    const agent3 = agentTurn(turn3, 150, 8);
    modelCall(at(30_050, 30_750), history3, [genAiText("assistant", answer3, "stop")], 150, 8, agent3);
    endAt(agent3, turn3);
  });

  return {
    conversationId,
    serviceName,
    messages: [
      { role: "system", content: SYSTEM },
      { role: "user", content: user1 },
      { role: "assistant", content: answer1 },
      { role: "user", content: user2 },
      { role: "assistant", content: null, tool_calls: [{ id: callId, name: "get_weather", arguments: JSON.stringify(WEATHER_ARGS) }] },
      { role: "tool", tool_call_id: callId, content: WEATHER_RESULT },
      { role: "assistant", content: answer2 },
      { role: "user", content: user3 },
      { role: "assistant", content: answer3 },
    ],
    toolCalls: [{ id: callId, name: "get_weather", arguments: WEATHER_ARGS, result: WEATHER_RESULT, error: null }],
    model: responseModel,
    inputTokens: 50 + 80 + 120 + 150,
    outputTokens: 12 + 20 + 25 + 8,
    latencyMs: 1_000 + 3_000 + 800,
    userTurns: 3,
    errors: [],
    llmCalls: 4,
    spanCount,
    traceIds,
    startedAt: new Date(base),
    endedAt: new Date(base + 30_800),
  };
}

/** OpenInference flattened message attributes (`llm.input_messages.N.message.*`). */
function flatMessages(prefix: string, messages: TranscriptMessage[]): Attributes {
  const attributes: Attributes = {};
  messages.forEach((message, i) => {
    const key = `${prefix}.${i}.message`;
    attributes[`${key}.role`] = message.role;
    if (message.content !== null) attributes[`${key}.content`] = message.content;
    if (message.tool_call_id) attributes[`${key}.tool_call_id`] = message.tool_call_id;
    message.tool_calls?.forEach((call, j) => {
      const callKey = `${key}.tool_calls.${j}.tool_call`;
      attributes[`${callKey}.id`] = call.id;
      attributes[`${callKey}.function.name`] = call.name;
      attributes[`${callKey}.function.arguments`] = call.arguments;
    });
  });
  return attributes;
}

/**
 * A two-turn conversation as OpenInference instrumentations (Phoenix) write it: AGENT, LLM and
 * TOOL spans, `session.id`, flattened `llm.input_messages` / `llm.output_messages`, `llm.token_count.*`,
 * and a TOOL span with `tool.name`, `input.value`, `output.value`. Both turns are in one trace.
 */
export async function emitOpenInferenceConversation(
  target: OtlpTarget,
  options: { sessionId?: string; serviceName?: string } = {},
): Promise<SentConversation> {
  const sessionId = options.sessionId ?? `session-${crypto.randomUUID()}`;
  const serviceName = options.serviceName ?? "support-bot";
  const base = Date.now() - 120_000;
  const at = (start: number, end: number): Timed => ({ start: base + start, end: base + end });
  const model = "claude-sonnet-4";
  const system: TranscriptMessage = { role: "system", content: "You answer order questions." };
  const user1: TranscriptMessage = { role: "user", content: "Where is order 1234?" };
  const callId = "toolu_01";
  const args = { order_id: "1234" };
  const result = JSON.stringify({ status: "shipped", eta: "Tuesday" });
  const toolCall: TranscriptMessage = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: callId, name: "lookup_order", arguments: JSON.stringify(args) }],
  };
  const toolMessage: TranscriptMessage = { role: "tool", tool_call_id: callId, content: result };
  const answer1: TranscriptMessage = { role: "assistant", content: "It shipped and arrives Tuesday." };
  const user2: TranscriptMessage = { role: "user", content: "Can it come Monday instead?" };
  const answer2: TranscriptMessage = { role: "assistant", content: "Sorry, Tuesday is the earliest." };

  const llm = (input: TranscriptMessage[], output: TranscriptMessage[], prompt: number, completion: number): Attributes => ({
    "openinference.span.kind": "LLM",
    "session.id": sessionId,
    "llm.model_name": model,
    "llm.token_count.prompt": prompt,
    "llm.token_count.completion": completion,
    ...flatMessages("llm.input_messages", input),
    ...flatMessages("llm.output_messages", output),
  });
  const agentAttributes = (input: string, output: string): Attributes => ({
    "openinference.span.kind": "AGENT",
    "session.id": sessionId,
    "input.value": input,
    "output.value": output,
    // Agent spans often repeat the totals: they must not be counted again.
    "llm.token_count.prompt": 999,
    "llm.token_count.completion": 999,
  });

  const { spanCount, traceIds } = await exportSpans(target, serviceName, (tracer) => {
    const root = timedSpan(tracer, "session", at(0, 20_000), { "openinference.span.kind": "CHAIN", "session.id": sessionId }, null);
    const turn1 = at(0, 2_000);
    const agent1 = timedSpan(tracer, "agent", turn1, agentAttributes(user1.content!, answer1.content!), root);
    // A framework LLM span around the client library's: only the outer one counts.
    const outer = timedSpan(tracer, "ChatAnthropic", at(100, 700), llm([system, user1], [toolCall], 40, 10), agent1);
    endAt(timedSpan(tracer, "anthropic.messages.create", at(150, 650), llm([system, user1], [toolCall], 40, 10), outer), at(150, 650));
    endAt(outer, at(100, 700));
    endAt(
      timedSpan(
        tracer,
        "lookup_order",
        at(700, 900),
        {
          "openinference.span.kind": "TOOL",
          "session.id": sessionId,
          "tool.name": "lookup_order",
          "input.value": JSON.stringify(args),
          "output.value": result,
        },
        agent1,
      ),
      at(700, 900),
    );
    endAt(
      timedSpan(tracer, "ChatAnthropic", at(950, 1_900), llm([system, user1, toolCall, toolMessage], [answer1], 70, 9), agent1),
      at(950, 1_900),
    );
    endAt(agent1, turn1);
    const turn2 = at(15_000, 16_000);
    const agent2 = timedSpan(tracer, "agent", turn2, agentAttributes(user2.content!, answer2.content!), root);
    endAt(
      timedSpan(
        tracer,
        "ChatAnthropic",
        at(15_100, 15_900),
        llm([system, user1, toolCall, toolMessage, answer1, user2], [answer2], 90, 8),
        agent2,
      ),
      at(15_100, 15_900),
    );
    endAt(agent2, turn2);
    endAt(root, at(0, 20_000));
  });

  return {
    conversationId: sessionId,
    serviceName,
    messages: [system, user1, toolCall, toolMessage, answer1, user2, answer2],
    toolCalls: [{ id: callId, name: "lookup_order", arguments: args, result, error: null }],
    model,
    inputTokens: 40 + 70 + 90,
    outputTokens: 10 + 9 + 8,
    latencyMs: 2_000 + 1_000,
    userTurns: 2,
    errors: [],
    llmCalls: 3,
    spanCount,
    traceIds,
    startedAt: new Date(base),
    endedAt: new Date(base + 20_000),
  };
}

/**
 * One turn in the older GenAI event shape (semantic conventions before 1.37): messages as span
 * events (`gen_ai.system.message`, `gen_ai.user.message`, `gen_ai.assistant.message`,
 * `gen_ai.tool.message`, `gen_ai.choice`), `gen_ai.usage.prompt_tokens`, no conversation id (grouped
 * by trace). A second tool runs without any message mentioning it and fails.
 */
export async function emitEventConversation(target: OtlpTarget, options: { serviceName?: string } = {}): Promise<SentConversation> {
  const serviceName = options.serviceName ?? "orders-agent";
  const base = Date.now() - 30_000;
  const at = (start: number, end: number): Timed => ({ start: base + start, end: base + end });
  const model = "gpt-4o-mini";
  const system = "You manage orders.";
  const user = "Cancel order 77 and email me.";
  const callId = "call_7";
  const args = { order_id: 77 };
  const cancelResult = "cancelled";
  const answer = "Order 77 is cancelled.";
  const toolCalls = JSON.stringify([{ id: callId, type: "function", function: { name: "cancel_order", arguments: JSON.stringify(args) } }]);

  const chatAttributes = (prompt: number, completion: number): Attributes => ({
    "gen_ai.operation.name": "chat",
    "gen_ai.system": "openai",
    "gen_ai.request.model": model,
    "gen_ai.usage.prompt_tokens": prompt,
    "gen_ai.usage.completion_tokens": completion,
  });

  const { spanCount, traceIds } = await exportSpans(target, serviceName, (tracer) => {
    const turn = at(0, 5_000);
    const agent = timedSpan(tracer, "invoke_agent orders", turn, { "gen_ai.operation.name": "invoke_agent" }, null);
    const chat1 = timedSpan(tracer, `chat ${model}`, at(100, 800), chatAttributes(30, 15), agent, (span) => {
      span.addEvent("gen_ai.system.message", { content: system }, new Date(base + 100));
      span.addEvent("gen_ai.user.message", { content: user }, new Date(base + 100));
      span.addEvent(
        "gen_ai.choice",
        {
          index: 0,
          finish_reason: "tool_calls",
          message: JSON.stringify({ role: "assistant", tool_calls: JSON.parse(toolCalls) as unknown }),
        },
        new Date(base + 800),
      );
    });
    endAt(chat1, at(100, 800));
    endAt(
      timedSpan(
        tracer,
        "execute_tool cancel_order",
        at(800, 1_100),
        { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "cancel_order", "gen_ai.tool.call.id": callId },
        agent,
      ),
      at(800, 1_100),
    );
    const chat2 = timedSpan(tracer, `chat ${model}`, at(1_200, 2_000), chatAttributes(60, 9), agent, (span) => {
      span.addEvent("gen_ai.system.message", { content: system });
      span.addEvent("gen_ai.user.message", { content: user });
      span.addEvent("gen_ai.assistant.message", { tool_calls: toolCalls });
      span.addEvent("gen_ai.tool.message", { content: cancelResult, id: callId });
      span.addEvent("gen_ai.choice", { index: 0, finish_reason: "stop", message: JSON.stringify({ role: "assistant", content: answer }) });
    });
    endAt(chat2, at(1_200, 2_000));
    const email = timedSpan(
      tracer,
      "execute_tool send_email",
      at(2_100, 4_900),
      {
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": "send_email",
        "gen_ai.tool.call.id": "call_8",
        "error.type": "TimeoutError",
      },
      agent,
    );
    email.setStatus({ code: SpanStatusCode.ERROR, message: "SMTP timed out" });
    endAt(email, at(2_100, 4_900));
    endAt(agent, turn);
  });

  return {
    conversationId: null,
    serviceName,
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
      { role: "assistant", content: null, tool_calls: [{ id: callId, name: "cancel_order", arguments: JSON.stringify(args) }] },
      { role: "tool", tool_call_id: callId, content: cancelResult },
      { role: "assistant", content: answer },
      // The failed tool no message mentions is shown where it ran.
      { role: "assistant", content: null, tool_calls: [{ id: "call_8", name: "send_email", arguments: "{}" }] },
      { role: "tool", tool_call_id: "call_8", content: "Error: SMTP timed out" },
    ],
    toolCalls: [
      { id: callId, name: "cancel_order", arguments: args, result: cancelResult, error: null },
      { id: "call_8", name: "send_email", arguments: {}, result: null, error: "SMTP timed out" },
    ],
    model,
    inputTokens: 90,
    outputTokens: 24,
    latencyMs: 5_000,
    userTurns: 1,
    errors: ["execute_tool send_email: SMTP timed out"],
    llmCalls: 2,
    spanCount,
    traceIds,
    startedAt: new Date(base),
    endedAt: new Date(base + 5_000),
  };
}

export type CapturedRequest = { contentType: string; body: Uint8Array; headers: http.IncomingHttpHeaders };

/** A loopback OTLP receiver that answers 200 with an empty response and keeps every request body (gunzipped). */
export type OtlpCapture = { url: string; requests: CapturedRequest[]; close: () => Promise<void> };

export async function startOtlpCapture(): Promise<OtlpCapture> {
  const requests: CapturedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const body = request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
      const contentType = request.headers["content-type"] ?? "";
      requests.push({ contentType, body: new Uint8Array(body), headers: request.headers });
      const json = contentType.includes("json");
      response.writeHead(200, { "content-type": json ? "application/json" : "application/x-protobuf" });
      response.end(json ? "{}" : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("capture server has no port");
  return {
    url: `http://127.0.0.1:${address.port}/v1/traces`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

/** A capture server for the test file: started before its tests, closed after them. */
export function withOtlpCapture(): Pick<OtlpCapture, "url" | "requests"> {
  let capture: OtlpCapture | undefined;
  beforeAll(async () => {
    capture = await startOtlpCapture();
  });
  afterAll(async () => {
    await capture?.close();
  });
  return {
    get url() {
      return capture!.url;
    },
    get requests() {
      return capture!.requests;
    },
  };
}
