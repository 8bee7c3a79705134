// The fake OpenAI server for the bench: in this process, or in its own process
// (scripts/bench/fake-process.ts) so that its CPU does not load the executor's event loop.
// Either way it reports its own time per chat request, keyed by the question asked.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import { startFakeOpenAI, type FakeRule } from "../../tests/fake-openai/server";
import { recordServerTimes, type ServerTime } from "./fake-timing";

export type FakeStats = {
  /** Chat completion requests received since start. */
  chatRequests: number;
  /** Highest number of requests in flight at once. */
  maxConcurrent: number;
  /** How often each last user message was asked (exactly-once check). */
  lastUserMessages: Map<string, number>;
};

export type BenchFake = {
  url: string;
  separate: boolean;
  stats: () => Promise<FakeStats>;
  /** Peak resident set of the fake's own process (bytes), when it runs separately. */
  peakRssBytes: () => number | null;
  /** CPU time (user + system, ms) of the fake's own process so far, when it runs separately. */
  cpuMs: () => number | null;
  /**
   * The server's own time (request headers parsed → response handed to the socket) per question
   * answered so far; waits up to `waitMs` for `expected` entries (the child's lines may lag).
   */
  serverTimes: (expected: number, waitMs?: number) => Promise<Map<string, number>>;
  /** The same keyed by `model` + NUL + question (both arms of an A/B bench ask the same question). */
  serverTimesByModel: (expected: number, waitMs?: number) => Promise<Map<string, number>>;
  /** Replaces the fake's rules (e.g. a slower model for the A/B bench's variant). */
  setRules: (rules: FakeRule[]) => Promise<void>;
  close: () => Promise<void>;
};

type RequestLike = { endpoint: string; body: unknown };

function lastUserMessage(body: unknown): string {
  const messages = (body as { messages?: { role?: string; content?: unknown }[] } | null)?.messages ?? [];
  const last = [...messages].reverse().find((m) => m.role === "user");
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? null);
}

function summarise(requests: RequestLike[], maxConcurrent: number): FakeStats {
  const lastUserMessages = new Map<string, number>();
  let chatRequests = 0;
  for (const r of requests) {
    if (r.endpoint !== "chat") continue;
    chatRequests++;
    const key = lastUserMessage(r.body);
    lastUserMessages.set(key, (lastUserMessages.get(key) ?? 0) + 1);
  }
  return { chatRequests, maxConcurrent, lastUserMessages };
}

/** Peak RSS (VmHWM) of a Linux process, in bytes; null elsewhere. */
export function procPeakRss(pid: number | "self"): number | null {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) of a Linux process in ms, assuming 100 clock ticks a second; null elsewhere. */
export function procCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After the command name: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/**
 * Sends the fake `requests` unmeasured chat completions, `concurrency` at a time, so that its
 * process is warm before the measured run: a fresh fake answered the first wave 30–70 ms late
 * (its own HTTP parsing and JSON code still cold), which the measured run then counted as Assay's
 * wall time. It stands in for a model API, which is never cold. Their questions ("fake warm-up
 * N") match no measured prefix.
 */
async function warmUpFake(url: string, requests: number, concurrency: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, requests) }, async () => {
      while (next < requests) {
        const i = next++;
        const res = await fetch(`${url}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer sk-fake" },
          body: JSON.stringify({ model: "fake-warm-up", messages: [{ role: "user", content: `fake warm-up ${i}` }] }),
        });
        if (!res.ok) throw new Error(`the fake refused its warm-up request: ${res.status}`);
        await res.arrayBuffer();
      }
    }),
  );
}

export async function startBenchFake(opts: {
  latencyMs: number;
  separate: boolean;
  root: string;
  /** Unmeasured requests sent before it is handed out (warmUpFake), at most this many at once (0: none). */
  warmUp?: { requests: number; concurrency: number };
}): Promise<BenchFake> {
  const fake = await startFake(opts);
  if (opts.warmUp && opts.warmUp.requests > 0 && opts.warmUp.concurrency > 0) {
    await warmUpFake(fake.url, opts.warmUp.requests, opts.warmUp.concurrency);
    // Their own times are not the measured run's (the separate fake's lines may lag: wait for them).
    await fake.serverTimes(opts.warmUp.requests, 2_000);
    fake.forgetServerTimes();
  }
  return fake;
}

async function startFake(opts: {
  latencyMs: number;
  separate: boolean;
  root: string;
}): Promise<BenchFake & { forgetServerTimes: () => void }> {
  const times = new Map<string, number>();
  const byModel = new Map<string, number>();
  const onTime = (t: ServerTime) => {
    times.set(t.question, t.serverMs);
    byModel.set(`${t.model ?? ""}\u0000${t.question}`, t.serverMs);
  };
  const waitFor = async (map: Map<string, number>, expected: number, waitMs: number) => {
    for (const until = Date.now() + waitMs; map.size < expected && Date.now() < until;) await new Promise((r) => setTimeout(r, 20));
    return new Map(map);
  };
  const serverTimes = (expected: number, waitMs = 2_000) => waitFor(times, expected, waitMs);
  const serverTimesByModel = (expected: number, waitMs = 2_000) => waitFor(byModel, expected, waitMs);
  const forgetServerTimes = () => {
    times.clear();
    byModel.clear();
  };
  if (!opts.separate) {
    const stopTiming = recordServerTimes(onTime);
    const fake = await startFakeOpenAI({ latencyMs: opts.latencyMs });
    return {
      url: fake.url,
      separate: false,
      stats: async () => summarise(fake.requests, fake.maxConcurrent()),
      peakRssBytes: () => null,
      cpuMs: () => null,
      serverTimes,
      serverTimesByModel,
      forgetServerTimes,
      setRules: async (rules) => fake.setRules(rules),
      close: () => {
        stopTiming();
        return fake.close();
      },
    };
  }
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(opts.root, "scripts/bench/fake-process.ts"), "--latency", String(opts.latencyMs)],
    { cwd: opts.root, stdio: ["ignore", "pipe", "inherit"] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error("the fake OpenAI server did not start within 20 s"));
    }, 20_000);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line.trim());
      lines.on("line", (next) => onTime(JSON.parse(next) as ServerTime));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the fake OpenAI server exited with code ${code}`));
    });
  });
  // Never leave the fake running when the bench dies.
  const killChild = () => {
    if (child.exitCode === null) child.kill("SIGKILL");
  };
  process.once("exit", killChild);
  const base = url.replace(/\/v1$/, "");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  // VmHWM is gone once the child exits: read it just before stopping it.
  let peak: number | null = null;
  return {
    url,
    separate: true,
    async stats() {
      const [requests, stats] = await Promise.all([
        fetch(`${base}/__fake/requests`).then((r) => r.json() as Promise<RequestLike[]>),
        fetch(`${base}/__fake/stats`).then((r) => r.json() as Promise<{ maxConcurrent: number }>),
      ]);
      return summarise(requests, stats.maxConcurrent);
    },
    peakRssBytes: () => peak ?? (child.pid ? procPeakRss(child.pid) : null),
    cpuMs: () => (child.pid ? procCpuMs(child.pid) : null),
    serverTimes,
    serverTimesByModel,
    forgetServerTimes,
    async setRules(rules) {
      const res = await fetch(`${base}/__fake/rules`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(rules),
      });
      if (!res.ok) throw new Error(`the fake refused the rules: ${res.status} ${await res.text()}`);
    },
    async close() {
      if (child.pid) peak = procPeakRss(child.pid);
      if (child.exitCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      process.off("exit", killChild);
    },
  };
}
