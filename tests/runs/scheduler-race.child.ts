// A second scheduler process for tests/runs/scheduler.test.ts: waits for "go" on stdin, then
// handles the slot at argv[2] (ISO) with three concurrent scheduler passes, prints the run ids
// it started as JSON and exits. Run with `node --conditions=react-server --import tsx`.
import { createInterface } from "node:readline";
import { db, pool } from "@/lib/db";
import { startDueScheduledRuns } from "@/lib/runs/scheduler";
import "@/lib/run-finished-subscribers";

const now = new Date(process.argv[2]!);
// Open connections before the race so both processes start it on equal terms.
await db.$queryRaw`SELECT 1`;
process.stdout.write("ready\n");
const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() === "go") break;
}
const results = await Promise.all([startDueScheduledRuns(now), startDueScheduledRuns(now), startDueScheduledRuns(now)]);
process.stdout.write(`${JSON.stringify(results.flatMap((r) => r.started))}\n`);
await db.$disconnect();
await pool.end();
process.exit(0);
