// "Run finished" (lib/runs/run-finished.ts): the subscribers registered in one place, the entry
// points that register them, and what a throwing or missing subscriber does to a finished run.
import { afterEach, describe, expect, it, vi } from "vitest";
import { logger } from "@/lib/logger";
import { onRunFinished, runFinishedSubscribers } from "@/lib/runs/run-finished";
import { makeWorkspace, runWithOutcomes, makeSuiteWithCases } from "../helpers/factories";

const EXPECTED = { finished: ["webhooks", "comparison", "matrix", "review rules", "regression alert"], cannotProceed: ["comparison"] };
const state = globalThis as unknown as { assayRunFinished?: unknown };

afterEach(() => vi.restoreAllMocks());

describe("run-finished subscribers", () => {
  it("are registered in the order finalize always ran them", () => {
    expect(runFinishedSubscribers()).toEqual(EXPECTED);
  });

  // Each module a process starts from registers them by importing it: a fresh registry and
  // module graph, then only the entry point.
  it.each(["@/lib/server-start", "@/lib/runs/worker"])("are registered by importing %s", { timeout: 60_000 }, async (entry) => {
    const saved = state.assayRunFinished;
    try {
      state.assayRunFinished = undefined;
      vi.resetModules();
      await import(/* @vite-ignore */ entry);
      const fresh = await import("@/lib/runs/run-finished");
      expect(fresh.runFinishedSubscribers()).toEqual(EXPECTED);
    } finally {
      state.assayRunFinished = saved;
    }
  });
});

describe("finishing a run", () => {
  it("keeps the run's status when a subscriber throws, logs it, and still runs the ones after it", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { suite } = await makeSuiteWithCases(ctx, 2);
    const error = vi.spyOn(logger, "error");
    const seen: string[] = [];
    const off = [
      onRunFinished("test: throws", { failure: "test subscriber failed", handle: () => Promise.reject(new Error("boom")) }),
      onRunFinished("test: after", { failure: "unused", handle: async (run) => void seen.push(`${run.runId}:${run.status}`) }),
    ];
    try {
      const run = await runWithOutcomes(ctx, suite.id);
      expect(run.status).toBe("completed");
      expect(seen).toEqual([`${run.id}:completed`]);
      expect(error).toHaveBeenCalledWith(
        expect.objectContaining({ runId: run.id, subscriber: "test: throws", err: expect.any(Error) }),
        "test subscriber failed",
      );
    } finally {
      off.forEach((unsubscribe) => unsubscribe());
    }
    expect(runFinishedSubscribers()).toEqual(EXPECTED);
  });

  it("logs an error when no subscriber is registered, and the run still ends", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { suite } = await makeSuiteWithCases(ctx, 1);
    const error = vi.spyOn(logger, "error");
    const saved = state.assayRunFinished;
    try {
      state.assayRunFinished = undefined;
      const run = await runWithOutcomes(ctx, suite.id);
      expect(run.status).toBe("completed");
      expect(error).toHaveBeenCalledWith(
        expect.objectContaining({ runId: run.id, event: "run finished" }),
        expect.stringMatching(/no run-finished subscribers are registered/),
      );
    } finally {
      state.assayRunFinished = saved;
    }
  });
});
