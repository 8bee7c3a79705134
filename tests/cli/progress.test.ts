import { describe, expect, it } from "vitest";
import { progressBar, waitUntilFinished } from "@/lib/cli/progress.mjs";

/** `--wait` output: a bar redrawn in place on a terminal, one line per change in a CI log. */

function stream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
}

function polls(states: { status: string; done: number }[]) {
  let i = 0;
  return () => Promise.resolve(states[Math.min(i++, states.length - 1)]!);
}

const states = [
  { status: "pending", done: 0 },
  { status: "running", done: 1 },
  { status: "running", done: 1 },
  { status: "completed", done: 4 },
];

/** Waits through `states` as a run of 4 cases, writing to `out`. */
const waitForStates = (out: ReturnType<typeof stream>) =>
  waitUntilFinished({
    label: "run",
    pollMs: 1,
    stream: out.stream,
    fetch: polls(states),
    status: (s) => s.status,
    progress: (s) => ({ done: s.done, total: 4, detail: "cases" }),
  });

describe("waitUntilFinished", () => {
  it("prints one plain line per change when stderr is not a terminal, and returns the finished value", async () => {
    const out = stream(false);
    const done = await waitForStates(out);
    expect(done).toEqual({ status: "completed", done: 4 });
    expect(out.writes).toEqual(["run: pending, 0/4 cases\n", "run: running, 1/4 cases\n", "run: completed, 4/4 cases\n"]);
  });

  it("redraws a bar in place on a terminal and ends the line when finished", async () => {
    const out = stream(true);
    await waitForStates(out);
    expect(out.writes.every((w, i) => (i === out.writes.length - 1 ? w === "\n" : w.startsWith("\r")))).toBe(true);
    expect(out.writes.at(-2)).toContain(`${"#".repeat(30)}] 100% 4/4`);
  });

  it("draws the bar proportionally, empty when the total is unknown", () => {
    expect(progressBar(1, 4, 8)).toBe("[##------]  25%");
    expect(progressBar(0, 0, 4)).toBe("[----]   0%");
    expect(progressBar(9, 4, 4)).toBe("[####] 100%");
  });
});
