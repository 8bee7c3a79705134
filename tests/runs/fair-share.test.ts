import { describe, expect, it } from "vitest";
import { shareSlots, type ClaimCandidate } from "@/lib/runs/fair-share";

function run(key: string, workspaceId: string, demand: number): ClaimCandidate {
  return { key, kind: "run", workspaceId, demand, slotsPerUnit: 1, casesPerUnit: 1 };
}

const none = new Map<string, number>();

/** Units per key, for compact assertions. */
function units(shares: ReturnType<typeof shareSlots>): Record<string, number> {
  return Object.fromEntries(shares.map((s) => [s.candidate.key, s.units]));
}

describe("shareSlots", () => {
  it("splits free slots evenly across workspaces, whatever the creation order", () => {
    const candidates = [run("big", "A", 400), run("small", "B", 50)];
    expect(units(shareSlots({ free: 64, candidates, heldByWorkspace: none, heldByKey: none, turn: 0 }))).toEqual({ big: 32, small: 32 });
  });

  it("gives a newcomer every freed slot until it holds as many as the biggest holder", () => {
    const candidates = [run("big", "A", 400), run("small", "B", 50)];
    const held = new Map([["A", 63]]);
    const heldKey = new Map([["big", 63]]);
    const shares = shareSlots({ free: 1, candidates, heldByWorkspace: held, heldByKey: heldKey, turn: 0 });
    expect(units(shares)).toEqual({ small: 1 });
    // With 20 free: the newcomer takes all it can use up to parity.
    const more = shareSlots({ free: 20, candidates, heldByWorkspace: new Map([["A", 44]]), heldByKey: new Map([["big", 44]]), turn: 0 });
    expect(units(more)).toEqual({ small: 20 });
  });

  it("hands what one workspace cannot use to the others (demand, unit size)", () => {
    const candidates = [run("a", "A", 3), run("b", "B", 100), { ...run("c", "C", 10), kind: "comparison" as const, slotsPerUnit: 2 }];
    const shares = shareSlots({ free: 20, candidates, heldByWorkspace: none, heldByKey: none, turn: 0 });
    const u = units(shares);
    expect(u.a).toBe(3);
    expect(u.c! * 2 + u.b! + u.a!).toBe(20);
    expect(Math.abs(u.c! * 2 - u.b!)).toBeLessThanOrEqual(2);
  });

  it("shares within a workspace across its runs, the least served first", () => {
    const candidates = [run("r1", "A", 100), run("r2", "A", 100), run("r3", "A", 100)];
    const shares = shareSlots({
      free: 6,
      candidates,
      heldByWorkspace: new Map([["A", 4]]),
      heldByKey: new Map([["r1", 4]]),
      turn: 0,
    });
    expect(units(shares)).toEqual({ r2: 3, r3: 3 });
    expect(shares.map((s) => s.candidate.key)).toEqual(["r2", "r3"]);
  });

  it("takes turns on ties: one free slot goes to a different workspace each tick", () => {
    const candidates = [run("a", "A", 10), run("b", "B", 10), run("c", "C", 10)];
    const winners = [0, 1, 2, 3].map(
      (turn) => shareSlots({ free: 1, candidates, heldByWorkspace: none, heldByKey: none, turn })[0]!.candidate.key,
    );
    expect(winners).toEqual(["a", "b", "c", "a"]);
  });

  it("respects each workspace's headroom under the cap, counting every arm a pair marks running", () => {
    const pair = { ...run("cmp", "B", 10), kind: "comparison" as const, casesPerUnit: 2 };
    const shares = shareSlots({
      free: 10,
      candidates: [run("a", "A", 10), pair],
      heldByWorkspace: none,
      heldByKey: none,
      workspaceHeadroom: new Map([
        ["A", 2],
        ["B", 5],
      ]),
      turn: 0,
    });
    expect(units(shares)).toEqual({ a: 2, cmp: 2 });
  });

  it("grants nothing without free slots or demand", () => {
    expect(shareSlots({ free: 0, candidates: [run("a", "A", 5)], heldByWorkspace: none, heldByKey: none, turn: 0 })).toEqual([]);
    expect(shareSlots({ free: 5, candidates: [run("a", "A", 0)], heldByWorkspace: none, heldByKey: none, turn: 0 })).toEqual([]);
  });
});
