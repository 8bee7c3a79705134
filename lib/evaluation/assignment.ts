/**
 * Minimum-cost assignment (Hungarian algorithm, O(n² m)). `cost[i][j]` is the cost of giving
 * column j to row i. Rectangular matrices are padded with `padCost`. Returns, per row, the
 * assigned column or -1 when the row got a padding column.
 */
export function minCostAssignment(cost: readonly (readonly number[])[], padCost = 0): number[] {
  const rows = cost.length;
  const cols = rows === 0 ? 0 : Math.max(...cost.map((r) => r.length));
  const n = Math.max(rows, cols);
  if (rows === 0) return [];
  const a = (i: number, j: number): number => (i < rows && j < (cost[i]?.length ?? 0) ? (cost[i]?.[j] ?? padCost) : padCost);

  // 1-indexed potentials and matching, following the classic e-maxx formulation.
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(n + 1).fill(0);
  const p = new Array<number>(n + 1).fill(0); // p[j] = row matched to column j
  const way = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Array<number>(n + 1).fill(Infinity);
    const used = new Array<boolean>(n + 1).fill(false);
    do {
      used[j0] = true;
      const i0 = p[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = a(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else {
          minv[j]! -= delta;
        }
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }
  const result = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= n; j++) {
    const row = p[j]! - 1;
    if (row >= 0 && row < rows) result[row] = j - 1 < cols ? j - 1 : -1;
  }
  return result;
}
