import { mulberry32 } from "./statistics";
import type { ComparisonOrdering } from "./schemas";

/**
 * The order in which the arms of pair `index` run (arm indices), as the A/B engine defines the
 * strategies: `sequential` always baseline first, `randomized` a per-pair shuffle drawn from the
 * comparison's recorded seed (same seed → same orders, whatever order pairs are claimed in),
 * `concurrent` all arms at once (listed in arm order). Pure: the engine and the pair rows
 * created up front compute the same orders.
 */
export function armOrder(ordering: ComparisonOrdering, seed: number, index: number, arms = 2): number[] {
  const order = Array.from({ length: arms }, (_, i) => i);
  if (ordering !== "randomized") return order;
  // One generator per pair, seeded from (seed, index), so the order does not depend on which
  // pairs ran before it; Fisher–Yates over the arm indices.
  const random = mulberry32(mix(seed, index));
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** A 32-bit hash of (seed, index) (murmur3's finalizer), so neighbouring pairs get unrelated streams. */
function mix(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** The arm roles of the first two arms; further arms (matrix runs) are `arm_<index>`. */
export function armRole(index: number): string {
  return index === 0 ? "baseline" : index === 1 ? "variant" : `arm_${index}`;
}
