// The set-up shared by every test that talks to a model: the fake OpenAI-compatible server on
// loopback and, for tests that run cases for real, an Executor with the real case runner polling
// this file's database. One call at the top of a test file registers the hooks:
//
//   const { fake, executor } = withRunStack();   // server + executor (started once per file)
//   const fake = withFakeOpenAI();                // server only
//
// The handles are usable at once (in helpers declared at module level) but forward to the
// started instances, so they may only be touched inside a hook or a test. The fake is reset after
// every test, so no rule, request or latency leaks from one test into the next; the executor
// stops (with a short grace) before the server closes, so no case is cut off mid-request.
import { afterAll, afterEach, beforeAll } from "vitest";
import { Executor, type ExecutorOptions } from "@/lib/runs/executor";
import { createCaseRunner } from "@/lib/runs/case-runner";
import { startFakeOpenAI, type FakeOpenAI, type StartOptions } from "../fake-openai/server";

export type RunStackOptions = {
  /** Start options of the fake server (base latency, start-up rules). */
  fake?: StartOptions;
  /** Executor options; the runner is always the real case runner. Default: polls every 50 ms. */
  executor?: Omit<ExecutorOptions, "runner">;
  /** How long the executor may finish its cases when the file ends. Default 1 s. */
  stopGraceMs?: number;
};

/** A stand-in that forwards every property to the instance `current()` returns once it exists. */
function lateBound<T extends object>(current: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_, prop) {
      const target = current();
      if (!target) throw new Error(`${what} is not started yet: use it inside a hook or a test`);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The fake OpenAI-compatible server for this test file, reset after every test. */
export function withFakeOpenAI(options: StartOptions = {}): FakeOpenAI {
  let fake: FakeOpenAI | undefined;
  beforeAll(async () => {
    fake = await startFakeOpenAI(options);
  });
  afterEach(() => fake?.reset());
  afterAll(async () => {
    await fake?.close();
  });
  return lateBound(() => fake, "the fake OpenAI server");
}

/** The fake server plus an Executor running this file's cases against it. */
export function withRunStack(options: RunStackOptions = {}): { fake: FakeOpenAI; executor: Executor } {
  const fake = withFakeOpenAI(options.fake);
  let executor: Executor | undefined;
  beforeAll(() => {
    executor = new Executor({ pollMs: 50, ...options.executor, runner: createCaseRunner() });
    executor.start();
  });
  // Registered after the server's hooks, so it runs before the server closes (after-hooks unwind).
  afterAll(async () => {
    await executor?.stop(options.stopGraceMs ?? 1000);
  });
  return { fake, executor: lateBound(() => executor, "the executor") };
}
