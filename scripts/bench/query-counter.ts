// Counts the SQL statements this process sends through `pg` (which the Prisma pg adapter uses),
// by wrapping pg.Client.prototype.query. Statements issued inside `uncounted(fn)` (the bench's
// own polling) are left out, so the counts are the executor's alone.
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";

export type QueryCounts = { statements: number; transactions: number; busyMs: number };

const skip = new AsyncLocalStorage<true>();
const counts: QueryCounts = { statements: 0, transactions: 0, busyMs: 0 };
let installed = false;

function sqlText(config: unknown): string {
  if (typeof config === "string") return config;
  if (typeof config === "object" && config !== null && typeof (config as { text?: unknown }).text === "string")
    return (config as { text: string }).text;
  return "";
}

/** Installs the counter once (before the first query) and returns a reader. */
export function installQueryCounter(): () => QueryCounts {
  if (!installed) {
    installed = true;
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function countedQuery(this: unknown, ...args: unknown[]) {
      const result = original.apply(this, args);
      if (skip.getStore()) return result;
      counts.statements++;
      if (/^\s*BEGIN\b/i.test(sqlText(args[0]))) counts.transactions++;
      const started = performance.now();
      if (result && typeof (result as Promise<unknown>).then === "function") {
        (result as Promise<unknown>).then(
          () => (counts.busyMs += performance.now() - started),
          () => (counts.busyMs += performance.now() - started),
        );
      }
      return result;
    };
  }
  return () => ({ ...counts });
}

/** Runs `fn` without counting its statements. */
export function uncounted<T>(fn: () => Promise<T>): Promise<T> {
  return skip.run(true, fn);
}
