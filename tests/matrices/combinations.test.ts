import { describe, expect, it } from "vitest";
import {
  bestCombinationIndex,
  combinationCount,
  combinationLabel,
  estimateCost,
  expandCombinations,
  matrixStatusOf,
} from "@/lib/matrices/combinations";
import { createMatrixInput, MAX_AXES, MAX_COMBINATIONS } from "@/lib/matrices/schemas";
import { zodIssues } from "@/lib/errors";

describe("matrix expansion", () => {
  it("is the cartesian product in axis order, the first axis varying slowest", () => {
    const combos = expandCombinations({ AIConfiguration: ["a", "b"], Temperature: [0, 0.7], Verbose: [true] });
    expect(combos).toEqual([
      { AIConfiguration: "a", Temperature: 0, Verbose: true },
      { AIConfiguration: "a", Temperature: 0.7, Verbose: true },
      { AIConfiguration: "b", Temperature: 0, Verbose: true },
      { AIConfiguration: "b", Temperature: 0.7, Verbose: true },
    ]);
    // Key order of every combination follows the axes.
    expect(combos.map((c) => Object.keys(c))).toEqual(Array(4).fill(["AIConfiguration", "Temperature", "Verbose"]));
    expect(combinationCount({ A: [1, 2, 3], B: ["x", "y"] })).toBe(6);
    expect(expandCombinations({})).toEqual([]);
  });

  it("labels a combination with its values (strings quoted)", () => {
    expect(combinationLabel({ Temperature: 0.7, AIConfiguration: "gpt-a", Strict: false })).toBe(
      'Temperature=0.7, AIConfiguration="gpt-a", Strict=false',
    );
  });
});

describe("matrix input limits", () => {
  const issues = (body: unknown) => {
    const parsed = createMatrixInput.safeParse(body);
    return parsed.success ? [] : zodIssues(parsed.error);
  };

  it("accepts exactly 32 combinations and refuses 33+ naming `variables`", () => {
    expect(issues({ variables: { A: [1, 2, 3, 4], B: [1, 2, 3, 4, 5, 6, 7, 8] } })).toEqual([]);
    const over = issues({ variables: { A: [1, 2, 3], B: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] } });
    expect(over).toEqual([{ path: "variables", message: `3 × 11 = 33 combinations; a matrix has at most ${MAX_COMBINATIONS}` }]);
  });

  it("accepts 10 axes and refuses 11+ even when every axis has one value (the product stays 1)", () => {
    const axes = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`V${i}`, [1]]));
    expect(MAX_AXES).toBe(10);
    expect(issues({ variables: axes(10) })).toEqual([]);
    expect(issues({ variables: axes(11) })).toEqual([{ path: "variables", message: "11 variables; a matrix varies at most 10" }]);
    // Thousands of one-value axes are refused by their count alone, at once.
    const started = performance.now();
    expect(issues({ variables: axes(8000) })).toEqual([{ path: "variables", message: "8000 variables; a matrix varies at most 10" }]);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses an empty matrix, an empty axis and repeated values, naming the axis", () => {
    expect(issues({ variables: {} })).toEqual([{ path: "variables", message: "Give at least one variable with its values" }]);
    expect(issues({ variables: { Temperature: [] } })).toContainEqual({
      path: "variables.Temperature",
      message: "Give at least one value",
    });
    expect(issues({ variables: { Temperature: [0.5, 0.5] } })).toEqual([
      { path: "variables.Temperature", message: "Values must be unique: 0.5 appears twice" },
    ]);
    // 0 and "0" are different values.
    expect(issues({ variables: { X: [0, "0"] } })).toEqual([]);
  });

  it("bounds repetitions (1–20) and refuses unknown fields", () => {
    expect(issues({ variables: { A: [1] }, repetitions: 21 })).toEqual([
      { path: "repetitions", message: "repetitions must be at most 20" },
    ]);
    expect(issues({ variables: { A: [1] }, repetitions: 0 })).toEqual([{ path: "repetitions", message: "repetitions must be at least 1" }]);
    expect(issues({ variables: { A: [1] }, bogus: 1 }).map((i) => i.path)).toEqual([""]);
    // Trials per combination default to the preset's or the suite's (the service resolves them).
    expect(createMatrixInput.parse({ variables: { A: [1] } })).toMatchObject({ trials: null, concurrency: 8, tags: [], case_ids: null });
    expect(createMatrixInput.parse({ variables: { A: [1] } }).repetitions).toBeUndefined();
  });

  it("takes trials per combination, with repetitions as its older name that must agree", () => {
    expect(createMatrixInput.parse({ variables: { A: [1] }, trials: 3 })).toMatchObject({ trials: 3 });
    expect(issues({ variables: { A: [1] }, trials: 3, repetitions: 3 })).toEqual([]);
    expect(issues({ variables: { A: [1] }, trials: 2, repetitions: 3 })).toEqual([
      { path: "trials", message: "trials and repetitions mean the same; give one of them" },
    ]);
    expect(issues({ variables: { A: [1] }, trials: 21 })).toEqual([{ path: "trials", message: "trials must be at most 20" }]);
  });
});

describe("matrix status, cost and best combination", () => {
  it("follows the runs", () => {
    expect(matrixStatusOf(["pending", "pending"], false)).toBe("pending");
    expect(matrixStatusOf(["running", "pending"], false)).toBe("running");
    expect(matrixStatusOf(["completed", "pending"], false)).toBe("running");
    expect(matrixStatusOf(["completed", "failed"], false)).toBe("completed");
    expect(matrixStatusOf(["failed", "failed"], false)).toBe("failed");
    expect(matrixStatusOf(["completed", "cancelled"], false)).toBe("cancelled");
    expect(matrixStatusOf(["completed", "completed"], true)).toBe("cancelled");
    expect(matrixStatusOf(["running"], true)).toBe("running");
  });

  it("estimates cost per million tokens only with both prices", () => {
    expect(estimateCost({ prompt: 2_000_000, completion: 500_000 }, { input: 0.5, output: 2 })).toBe(2);
    expect(estimateCost({ prompt: 30, completion: 10 }, { input: 1, output: 4 })).toBe(0.00007);
    expect(estimateCost({ prompt: 30, completion: 10 }, { input: 1, output: null })).toBeNull();
    expect(estimateCost({ prompt: 30, completion: 10 }, null)).toBeNull();
  });

  it("ranks by pass rate, then lower cost, then lower p50; unknown cost and latency last", () => {
    const row = (index: number, pass_rate: number, estimated_cost: number | null, latency_p50_ms: number | null, executed = 4) => ({
      index,
      pass_rate,
      estimated_cost,
      latency_p50_ms,
      executed,
    });
    expect(bestCombinationIndex([row(0, 50, 0.1, 10), row(1, 75, 9, 900)])).toBe(1);
    expect(bestCombinationIndex([row(0, 75, 0.2, 10), row(1, 75, 0.1, 900)])).toBe(1);
    expect(bestCombinationIndex([row(0, 75, null, 10), row(1, 75, 0.5, 900)])).toBe(1);
    expect(bestCombinationIndex([row(0, 75, 0.1, 300), row(1, 75, 0.1, 200)])).toBe(1);
    expect(bestCombinationIndex([row(0, 75, null, null), row(1, 75, null, 200)])).toBe(1);
    expect(bestCombinationIndex([row(0, 100, 0, 1, 0), row(1, 10, 1, 1)])).toBe(1);
    expect(bestCombinationIndex([row(0, 0, null, null, 0)])).toBeNull();
  });
});
