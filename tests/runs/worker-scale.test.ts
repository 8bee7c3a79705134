// Scale out: real `scripts/worker.ts` processes — what `npm run worker` runs —
// share runs through PostgreSQL: every case exactly once, each worker within its
// ASSAY_WORKER_SLOTS, the workspace within ASSAY_WORKSPACE_MAX_RUNNING and each run within its
// concurrency, all sampled from the database while they run.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getRun, startRun } from "@/lib/runs/service";
import { withFakeOpenAI } from "../helpers/run-stack";
import { makeWorkspace, makeSuiteWithCases, waitFor } from "../helpers/factories";

const root = path.resolve(import.meta.dirname, "../..");
// Calls long enough that the second worker claims cases before the first has run them all: at
// 80 ms, on a starved machine (Vitest beside two busy loops on 2 CPUs), the first ran all 24.
const fake = withFakeOpenAI({ latencyMs: 250 });
const workers: ChildProcess[] = [];

afterAll(async () => {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null) return resolve();
          w.once("exit", () => resolve());
          w.kill("SIGTERM");
          setTimeout(() => w.kill("SIGKILL"), 10_000).unref();
        }),
    ),
  );
});

/** Starts `scripts/worker.ts` as `npm run worker` does (tsx, react-server condition) and waits for "worker ready". */
async function startWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/worker.ts")], {
    cwd: root,
    // Production: the logger is silent under NODE_ENV=test, and "worker ready" is how we know it started.
    env: { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  workers.push(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("worker not ready within 40 s")), 40_000);
    const lines = createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (!line.includes('"worker ready"')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => reject(new Error(`worker exited with code ${code} before it was ready`)));
  });
  return child;
}

describe("npm run worker processes", () => {
  it("share runs exactly once within each worker's slots, the workspace cap and each run's concurrency", async () => {
    await Promise.all([1, 2].map(() => startWorker({ ASSAY_WORKER_SLOTS: "3", ASSAY_WORKSPACE_MAX_RUNNING: "4" })));
    const { ctx } = await makeWorkspace("editor");
    const runs = [];
    for (const name of ["first", "second"]) {
      const { suite } = await makeSuiteWithCases(ctx, 12, {
        baseUrl: fake.url,
        caseData: (i) => ({ initialMessage: `${name} question ${i}` }),
      });
      runs.push(await startRun(ctx, suite.id, { concurrency: 3 }, "api"));
    }

    const owners = new Set<string>();
    let maxPerOwner = 0;
    let maxWorkspace = 0;
    let maxPerRun = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const rows = await db.$queryRaw<{ owner: string | null; runId: string; n: number }[]>`
          SELECT "leaseOwner" AS owner, "runId", count(*)::int AS n FROM "CaseResult"
          WHERE "workspaceId" = ${ctx.workspaceId}::uuid AND "status" = 'running' GROUP BY 1, 2`;
        const byOwner = new Map<string, number>();
        const byRun = new Map<string, number>();
        for (const r of rows) {
          if (r.owner) owners.add(r.owner);
          byOwner.set(r.owner ?? "", (byOwner.get(r.owner ?? "") ?? 0) + r.n);
          byRun.set(r.runId, (byRun.get(r.runId) ?? 0) + r.n);
        }
        maxPerOwner = Math.max(maxPerOwner, ...byOwner.values(), 0);
        maxPerRun = Math.max(maxPerRun, ...byRun.values(), 0);
        maxWorkspace = Math.max(
          maxWorkspace,
          rows.reduce((n, r) => n + r.n, 0),
        );
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    try {
      for (const run of runs) {
        const done = await waitFor(
          () => getRun(ctx, run.id),
          (r) => r.status === "completed",
          60_000,
        );
        expect(done.passed_cases).toBe(12);
      }
    } finally {
      sampling = false;
      await sampler;
    }

    expect(owners.size).toBe(2);
    expect(maxPerOwner).toBeLessThanOrEqual(3);
    expect(maxPerRun).toBeLessThanOrEqual(3);
    expect(maxWorkspace).toBeGreaterThan(0);
    expect(maxWorkspace).toBeLessThanOrEqual(4);
    const asked = new Map<string, number>();
    for (const r of fake.requests.filter((q) => q.endpoint === "chat")) {
      const messages = r.body.messages as { role: string; content: string }[];
      const question = messages.filter((m) => m.role === "user").at(-1)!.content;
      asked.set(question, (asked.get(question) ?? 0) + 1);
    }
    expect(asked.size).toBe(24);
    expect([...asked.values()].every((n) => n === 1)).toBe(true);
  }, 90_000);
});
