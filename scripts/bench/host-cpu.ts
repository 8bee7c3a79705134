// What the host's CPUs did over a measured span, from /proc/stat (Linux only): how much of it
// other tenants of the host took (steal: a virtual CPU ready to run and not given the core)
// and how busy the CPUs were. A ratio measured while the host stole a fifth of the CPU is not
// the code's: the reports print both beside the figures.
import { readFileSync } from "node:fs";

/** The aggregate `cpu` line of /proc/stat, in clock ticks; null where it cannot be read. */
export type HostCpuSnapshot = { busy: number; idle: number; steal: number } | null;

export function hostCpuSnapshot(): HostCpuSnapshot {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is inside user)
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
    if ([user, nice, system, idle, iowait, irq, softirq, steal].some((n) => n === undefined || !Number.isFinite(n))) return null;
    return { busy: user! + nice! + system! + irq! + softirq!, idle: idle! + iowait!, steal: steal! };
  } catch {
    return null;
  }
}

/** Shares of the host's CPU time between two snapshots, in percent; null when either is missing or no time passed. */
export function hostCpuShares(before: HostCpuSnapshot, after: HostCpuSnapshot): { stealPct: number; busyPct: number } | null {
  if (!before || !after) return null;
  const busy = after.busy - before.busy;
  const idle = after.idle - before.idle;
  const steal = after.steal - before.steal;
  const total = busy + idle + steal;
  if (total <= 0) return null;
  return { stealPct: (100 * steal) / total, busyPct: (100 * busy) / total };
}
