/**
 * How one executor tick shares this process's free slots between the runs and comparisons that
 * have work (one workspace's huge run must not starve the others). Pure: the
 * executor (./executor.ts, `claimAndLaunch`) reads the candidates in SQL, asks for the shares,
 * then claims them. ./README.md "Fairness" explains the policy.
 */

/** A run (or comparison) that could start work now, as the tick's candidate query saw it. */
export type ClaimCandidate = {
  /** The run id, or the comparison id (a comparison's pairs are claimed through the comparison). */
  key: string;
  kind: "run" | "comparison";
  workspaceId: string;
  /** Units it may start now: its concurrency headroom, at most its pending work (run: cases; comparison: pairs). */
  demand: number;
  /** Slots of this process one unit takes: a case 1, a sequential pair 1, a concurrent pair one per arm. */
  slotsPerUnit: number;
  /** Case results one unit marks `running` (what the workspace cap counts): a pair marks every arm. */
  casesPerUnit: number;
};

export type ShareInput = {
  /** Free slots of this process. */
  free: number;
  /** Candidates in a stable order (creation order): ties are broken by this order, rotated by `turn`. */
  candidates: ClaimCandidate[];
  /** Slots this process already holds, per workspace and per candidate key. */
  heldByWorkspace: ReadonlyMap<string, number>;
  heldByKey: ReadonlyMap<string, number>;
  /** Cases a workspace may still start under its cap (all processes); absent: no cap. */
  workspaceHeadroom?: ReadonlyMap<string, number>;
  /** Rotates which workspace (and which run within one) wins a tie, so ties take turns tick by tick. */
  turn: number;
};

/** Units granted to one candidate, in the order the claims should be made. */
export type Share = { candidate: ClaimCandidate; units: number };

/**
 * Max-min fair shares: each free slot goes, one unit at a time, to the workspace holding the
 * fewest slots of this process (counting what this tick already granted), and within it to the
 * run holding the fewest; ties go round-robin from a start that rotates with `turn`. A workspace
 * (or run) with no demand left, at its cap, or whose unit does not fit in what is left is passed
 * over, so nothing stays idle while anyone can use it. A newcomer therefore gets every slot that
 * frees up until it holds as many as the biggest holder (or all it can use), and equal holders
 * alternate. Shares are returned in the order of their first grant: the least served claims first.
 */
export function shareSlots(input: ShareInput): Share[] {
  const { candidates, heldByWorkspace, heldByKey, workspaceHeadroom } = input;
  let free = input.free;
  if (free <= 0 || candidates.length === 0) return [];

  // Workspaces in the order of their first (oldest) candidate, rotated by the turn.
  const byWorkspace = new Map<string, ClaimCandidate[]>();
  for (const c of candidates) {
    if (c.demand <= 0) continue;
    const list = byWorkspace.get(c.workspaceId) ?? [];
    list.push(c);
    byWorkspace.set(c.workspaceId, list);
  }
  const workspaces = rotate([...byWorkspace.keys()], input.turn);
  for (const [ws, list] of byWorkspace) byWorkspace.set(ws, rotate(list, input.turn));

  const granted = new Map<string, number>();
  const wsSlots = new Map<string, number>(workspaces.map((ws) => [ws, heldByWorkspace.get(ws) ?? 0]));
  const keySlots = new Map<string, number>(candidates.map((c) => [c.key, heldByKey.get(c.key) ?? 0]));
  const headroom = new Map<string, number>(
    workspaces.map((ws) => [ws, workspaceHeadroom?.get(ws) ?? Number.POSITIVE_INFINITY] as [string, number]),
  );
  const order: ClaimCandidate[] = [];

  const canTake = (c: ClaimCandidate) =>
    (granted.get(c.key) ?? 0) < c.demand && c.slotsPerUnit <= free && c.casesPerUnit <= headroom.get(c.workspaceId)!;

  while (free > 0) {
    let bestWs: string | undefined;
    let bestCandidate: ClaimCandidate | undefined;
    for (const ws of workspaces) {
      if (bestWs !== undefined && wsSlots.get(ws)! >= wsSlots.get(bestWs)!) continue;
      let pick: ClaimCandidate | undefined;
      for (const c of byWorkspace.get(ws)!) {
        if (!canTake(c)) continue;
        if (pick === undefined || keySlots.get(c.key)! < keySlots.get(pick.key)!) pick = c;
      }
      if (pick) {
        bestWs = ws;
        bestCandidate = pick;
      }
    }
    if (!bestWs || !bestCandidate) break;
    const c = bestCandidate;
    if (!granted.has(c.key)) order.push(c);
    granted.set(c.key, (granted.get(c.key) ?? 0) + 1);
    free -= c.slotsPerUnit;
    wsSlots.set(bestWs, wsSlots.get(bestWs)! + c.slotsPerUnit);
    keySlots.set(c.key, keySlots.get(c.key)! + c.slotsPerUnit);
    headroom.set(bestWs, headroom.get(bestWs)! - c.casesPerUnit);
  }
  return order.map((candidate) => ({ candidate, units: granted.get(candidate.key)! }));
}

/** The list started at `turn` modulo its length (a stable round-robin start). */
function rotate<T>(list: T[], turn: number): T[] {
  if (list.length < 2) return list;
  const start = ((turn % list.length) + list.length) % list.length;
  return [...list.slice(start), ...list.slice(0, start)];
}
