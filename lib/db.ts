import "server-only";
import pg from "pg";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient, type Prisma } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { NotFoundError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { currentWorkspaceScope, inScopedTransaction, runInScopedTransaction } from "@/lib/tenant-scope";

type Clients = { pool: pg.Pool; db: PrismaClient };

function createClients(): Clients {
  // Without DATABASE_URL (e.g. during `next build`) the client is created but every query fails.
  const connectionString = env.DATABASE_URL ?? "postgresql://database-url-not-set@127.0.0.1:1/none";
  // ASSAY_DB_POOL_SIZE (20): a case holds a connection only while it is claimed or written, so
  // the pool need not grow with ASSAY_WORKER_SLOTS (lib/runs/README.md, "Deployment").
  const pool = new pg.Pool({ connectionString, max: env.ASSAY_DB_POOL_SIZE });
  // An idle connection dropped by the server (restart, failover) must not crash the process.
  pool.on("error", (err: Error & { code?: string }) =>
    logger.warn({ code: err.code, message: err.message }, "idle database connection closed"),
  );
  // @prisma/adapter-pg ships its own @types/pg; at runtime both are the one `pg` package.
  const base = new PrismaClient({ adapter: new PrismaPg(pool as unknown as ConstructorParameters<typeof PrismaPg>[0]) });
  return { pool, db: workspaceScoped(base) };
}

/**
 * Row-level security, client side. Inside `withWorkspaceScope(id, …)` (an API
 * request, a server action) every query declares its workspace to PostgreSQL first, in the same
 * transaction: `set_config('app.workspace_id', id, true)`, transaction-local so nothing leaks to
 * the next user of the pooled connection. The policies of migration `row_level_security` then
 * return and accept only that workspace's rows, whatever the query's `where` forgot. Outside a
 * scope (executor, scheduler, sign-in, API-key lookup, invitations by token, seeds, tests'
 * fixtures) nothing is declared and nothing is filtered: defence in depth against a missing
 * filter in request code, not a boundary against SQL the app itself runs (and the raw `pool`
 * below is never scoped).
 *
 * - A single operation becomes a batch transaction `[set_config, operation]` (Prisma's
 *   row-level-security extension pattern): about +0.5 ms per query on a local database.
 * - `$transaction(async (tx) => …)` declares the workspace once at its start; operations on `tx`
 *   are not wrapped again (they run inside it). Caveat: a query through `db` (not `tx`) inside
 *   such a callback is not wrapped either, so it runs unfiltered — services use `tx` there.
 * - `$transaction([...])` gets the declaration prepended to its batch.
 * Query extensions change no types, so `db` keeps the PrismaClient type (and `Tx`).
 */
function workspaceScoped(base: PrismaClient): PrismaClient {
  const declare = (client: Pick<PrismaClient, "$executeRaw">, workspaceId: string) =>
    client.$executeRaw`SELECT set_config('app.workspace_id', ${workspaceId}, true)`;
  const extended = base.$extends({
    query: {
      async $allOperations({ args, query }) {
        const scope = currentWorkspaceScope();
        if (!scope || inScopedTransaction()) return query(args);
        const [, result] = await base.$transaction([declare(base, scope.workspaceId), query(args) as Prisma.PrismaPromise<unknown>]);
        return result;
      },
    },
  }) as unknown as PrismaClient;
  const transaction = (arg: unknown, options?: Parameters<PrismaClient["$transaction"]>[1]) => {
    const scope = currentWorkspaceScope();
    if (typeof arg === "function") {
      const fn = arg as (tx: Tx) => Promise<unknown>;
      if (!scope) return extended.$transaction(fn, options);
      return runInScopedTransaction(() =>
        extended.$transaction(async (tx) => {
          await declare(tx, scope.workspaceId);
          return fn(tx);
        }, options),
      );
    }
    const batch = arg as Prisma.PrismaPromise<unknown>[];
    if (!scope) return extended.$transaction(batch, options);
    return runInScopedTransaction(() => extended.$transaction([declare(extended, scope.workspaceId), ...batch], options)).then((results) =>
      results.slice(1),
    );
  };
  return new Proxy(extended, {
    get: (target, prop, receiver) => (prop === "$transaction" ? transaction : Reflect.get(target, prop, receiver)),
  });
}

const globalForDb = globalThis as unknown as { assayDbClients?: Clients; assayExecutorPool?: pg.Pool };
const clients = globalForDb.assayDbClients ?? createClients();
if (env.NODE_ENV === "development") globalForDb.assayDbClients = clients;

/**
 * The one Prisma client, workspace-scoped inside `withWorkspaceScope` (see workspaceScoped).
 * Cached on globalThis in development so hot reload does not leak pools.
 */
export const db: PrismaClient = clients.db;
/**
 * The pg pool under `db`, for raw reads that skip Prisma's per-statement cost (~0.7–1 ms of CPU
 * through Prisma, ~0.1 ms through pg): the live run page's reads (`scopedPoolRead`, which
 * declares the workspace itself) and the app shell. Never workspace-scoped on its own.
 */
export const pool: pg.Pool = clients.pool;

/**
 * The executor's own connections (claim, result writes, heartbeat, stage flush), apart from the
 * pool that serves requests: fifty people opening a live run's page at once queue for `pool`,
 * and the run must not queue behind them. Opened on first use, so only a process that runs the
 * executor has them (ASSAY_EXECUTOR_POOL_SIZE, 10). Never workspace-scoped.
 */
export function executorPool(): pg.Pool {
  return (globalForDb.assayExecutorPool ??= createExecutorPool());
}

/**
 * One transaction on a pooled connection of `pool`, declared to the workspace first
 * (`app.workspace_id`, transaction-local, so the row-level security policies apply exactly as
 * through `db`): for the hot paths that skip Prisma (the live run page's reads, traffic
 * ingestion's batch writes). The id is inlined — checked to be a UUID, so a plain literal — so
 * that BEGIN and the declaration travel as one simple-protocol message: one round trip, not two.
 * With `snapshot` (an id from pg_export_snapshot), the transaction reads that snapshot (REPEATABLE READ).
 */
export async function scopedPoolTransaction<T>(
  workspaceId: string,
  fn: (client: pg.PoolClient) => Promise<T>,
  { readOnly = false, snapshot }: { readOnly?: boolean; snapshot?: string } = {},
): Promise<T> {
  if (!isUuid(workspaceId)) throw new NotFoundError("Workspace");
  // An exported snapshot (pg_export_snapshot) is imported in REPEATABLE READ before any query; its id is hex and dashes.
  if (snapshot !== undefined && !/^[0-9A-F-]+$/i.test(snapshot)) throw new Error("unexpected snapshot id");
  const begin = [
    `BEGIN${snapshot ? " ISOLATION LEVEL REPEATABLE READ" : ""}${readOnly ? " READ ONLY" : ""}`,
    ...(snapshot ? [`SET TRANSACTION SNAPSHOT '${snapshot}'`] : []),
    `SELECT set_config('app.workspace_id', '${workspaceId}', true)`,
  ];
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(begin.join("; "));
    const result = await fn(client);
    await client.query("COMMIT");
    return result;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {
      broken = true;
    });
    throw err;
  } finally {
    client.release(broken);
  }
}

/** Closes this process's connections (both pools; tests and scripts that end). */
export async function endPools(): Promise<void> {
  await clients.pool.end().catch(() => undefined);
  await globalForDb.assayExecutorPool?.end().catch(() => undefined);
  globalForDb.assayExecutorPool = undefined;
}

function createExecutorPool(): pg.Pool {
  const executor = new pg.Pool({
    connectionString: env.DATABASE_URL ?? "postgresql://database-url-not-set@127.0.0.1:1/none",
    max: env.ASSAY_EXECUTOR_POOL_SIZE,
  });
  executor.on("error", (err: Error & { code?: string }) =>
    logger.warn({ code: err.code, message: err.message }, "idle executor database connection closed"),
  );
  return executor;
}

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
