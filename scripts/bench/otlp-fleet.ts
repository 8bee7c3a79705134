// The OTLP bench's traffic: a fleet of agents in conversation, made with the real OpenTelemetry
// JS SDK. Many multi-turn GenAI conversations are open at once; every export batch takes the next
// turns of randomly chosen ones, so batches interleave conversations. A turn is one trace: an
// `invoke_agent` span around a `chat` span per model call (each carrying the whole growing
// `gen_ai.input.messages` history) and, sometimes, an `execute_tool` span that does not name the
// conversation (the receiver finds it by its trace). Some turns' `invoke_agent` span, which ends
// last, is held back a few batches, as a BatchSpanProcessor exports a span only once it has ended:
// late spans of earlier conversations arrive in later requests. Seeded, so runs send the same.
import { ROOT_CONTEXT, SpanKind, trace, type Attributes, type Span, type Tracer } from "@opentelemetry/api";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { mulberry32 } from "@/lib/comparisons/statistics";

/** What was sent of one conversation: the receiver must assemble exactly this. */
export type ExpectedConversation = { userTurns: number; spans: number };

type Conversation = {
  id: string;
  turns: number;
  done: number;
  spans: number;
  /** GenAI messages so far (`{role, parts}`), sent whole on each chat span. */
  history: unknown[];
  startMs: number;
  topic: string;
};

const TOPICS = [
  "a refund for order",
  "the weather in",
  "a hotel booking in",
  "a flight change to",
  "the invoice for",
  "a password reset for",
];
const PLACES = ["Paris", "Lisbon", "Osaka", "Denver", "Nairobi", "Oslo", "Lima", "Hanoi"];
const SYSTEM = JSON.stringify([{ type: "text", content: "You are a support assistant. Use the tools for live data; be brief." }]);
const MODEL = "gpt-4o-mini";

const text = (role: string, content: string, finishReason?: string) => ({
  role,
  parts: [{ type: "text", content }],
  ...(finishReason ? { finish_reason: finishReason } : {}),
});

export class Fleet {
  private readonly random: () => number;
  private readonly memory = new InMemorySpanExporter();
  private readonly provider: BasicTracerProvider;
  private readonly tracer: Tracer;
  private readonly open: Conversation[] = [];
  /** Spans ready to export, in the order they ended. */
  private readonly pending: ReadableSpan[] = [];
  /** Held-back spans and the batch they are released in. */
  private late: { due: number; span: ReadableSpan }[] = [];
  private batchNo = 0;
  private made = 0;
  readonly expected = new Map<string, ExpectedConversation>();
  /** Every span id made ("traceId:spanId"). */
  readonly spanIds = new Set<string>();

  constructor(
    private readonly opts: {
      /** Conversations open at once. */
      active: number;
      /** Share of turns whose invoke_agent span is exported 1–3 batches late. */
      lateShare: number;
      /** Share of turns that call a tool. */
      toolShare: number;
      serviceName: string;
      seed: number;
    },
  ) {
    this.random = mulberry32(opts.seed);
    this.provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ "service.name": opts.serviceName, "service.version": "2.3.0" }),
      spanProcessors: [new SimpleSpanProcessor(this.memory)],
    });
    this.tracer = this.provider.getTracer("assay-bench-agent", "0.1.0");
    for (let i = 0; i < opts.active; i++) this.open.push(this.newConversation());
  }

  private pick<T>(list: T[]): T {
    return list[Math.floor(this.random() * list.length)]!;
  }

  private newConversation(): Conversation {
    const n = ++this.made;
    return {
      id: `bench-conv-${this.opts.seed}-${n}`,
      turns: 2 + Math.floor(this.random() * 4),
      done: 0,
      spans: 0,
      history: [],
      // Conversations began in the last hour; their turns are 20 s apart.
      startMs: Date.now() - 3_600_000 + Math.floor(this.random() * 3_000_000),
      topic: `${this.pick(TOPICS)} ${this.pick(PLACES)} #${n}`,
    };
  }

  private span(name: string, startMs: number, endMs: number, attributes: Attributes, parent: Span | null): void {
    const context = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
    const kind = parent ? SpanKind.CLIENT : SpanKind.SERVER;
    this.tracer.startSpan(name, { kind, attributes, startTime: new Date(startMs) }, context).end(new Date(endMs));
  }

  /** One user turn of `c` as one trace; returns its spans in the order they ended (invoke_agent last). */
  private turn(c: Conversation): ReadableSpan[] {
    const t = c.startMs + c.done * 20_000;
    const turn = c.done + 1;
    const common = { "gen_ai.conversation.id": c.id, "gen_ai.provider.name": "openai" };
    const chat = (output: unknown, inputTokens: number, outputTokens: number): Attributes => ({
      ...common,
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": MODEL,
      "gen_ai.response.model": `${MODEL}-2024-07-18`,
      "gen_ai.system_instructions": SYSTEM,
      "gen_ai.input.messages": JSON.stringify(c.history),
      "gen_ai.output.messages": JSON.stringify([output]),
      "gen_ai.usage.input_tokens": inputTokens,
      "gen_ai.usage.output_tokens": outputTokens,
    });
    c.history.push(text("user", `Turn ${turn} about ${c.topic}: can you check the details and tell me what happens next?`));
    const agent = this.tracer.startSpan("invoke_agent Support assistant", {
      kind: SpanKind.SERVER,
      attributes: { ...common, "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "Support assistant" },
      startTime: new Date(t),
    });
    let at = t + 50;
    if (this.random() < this.opts.toolShare) {
      const callId = `call_${c.id.slice(-6)}_${turn}`;
      const args = { query: c.topic, turn };
      const call = {
        role: "assistant",
        parts: [{ type: "tool_call", id: callId, name: "lookup", arguments: args }],
        finish_reason: "tool_call",
      };
      this.span(`chat ${MODEL}`, at, at + 700, chat(call, 300 + 80 * turn, 25), agent);
      c.history.push(call);
      // The tool's own instrumentation does not know the conversation id: only its trace ties it.
      this.span(
        "execute_tool lookup",
        at + 700,
        at + 900,
        {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": "lookup",
          "gen_ai.tool.call.id": callId,
          "gen_ai.tool.call.arguments": JSON.stringify(args),
          "gen_ai.tool.call.result": `Found 1 record for ${c.topic}: status open, updated today.`,
        },
        agent,
      );
      c.history.push({ role: "tool", parts: [{ type: "tool_call_response", id: callId, response: "status open" }] });
      at += 950;
    }
    const answer = text("assistant", `About ${c.topic} (turn ${turn}): it is open and will be handled today.`, "stop");
    this.span(`chat ${MODEL}`, at, at + 900, chat(answer, 320 + 90 * turn, 40), agent);
    c.history.push(answer);
    agent.end(new Date(at + 1_000));
    c.done++;
    const spans = this.memory.getFinishedSpans().slice();
    this.memory.reset();
    c.spans += spans.length;
    this.expected.set(c.id, { userTurns: c.done, spans: c.spans });
    for (const s of spans) this.spanIds.add(`${s.spanContext().traceId}:${s.spanContext().spanId}`);
    return spans;
  }

  /** The next export request's spans: late spans now due first, then the next turns of random open conversations. */
  nextBatch(size: number): ReadableSpan[] {
    const batch = this.batchNo++;
    const due = this.late.filter((l) => l.due <= batch);
    this.late = this.late.filter((l) => l.due > batch);
    this.pending.unshift(...due.map((l) => l.span));
    while (this.pending.length < size) {
      const slot = Math.floor(this.random() * this.open.length);
      const c = this.open[slot]!;
      const spans = this.turn(c);
      if (c.done === c.turns) this.open[slot] = this.newConversation();
      if (this.random() < this.opts.lateShare) {
        this.late.push({ due: batch + 1 + Math.floor(this.random() * 3), span: spans.pop()! });
      }
      this.pending.push(...spans);
    }
    return this.pending.splice(0, size);
  }

  /** Everything made and not yet handed out (pending and late spans), in batches of `size`. */
  drain(size: number): ReadableSpan[][] {
    const rest = [...this.pending.splice(0), ...this.late.map((l) => l.span)];
    this.late = [];
    const batches: ReadableSpan[][] = [];
    for (let i = 0; i < rest.length; i += size) batches.push(rest.slice(i, i + size));
    return batches;
  }

  async shutdown(): Promise<void> {
    await this.provider.shutdown();
  }
}
