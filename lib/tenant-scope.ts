/**
 * The workspace a request acts for, carried through its async calls so that lib/db.ts can
 * declare it to PostgreSQL (`app.workspace_id`) on every query: the row-level security
 * policies (migration `row_level_security`) then hide and refuse other workspaces' rows even
 * where a query forgot its `workspaceId` filter. Entered by `withApi`/`withSession` once the key
 * or session resolved the workspace, and by `workspaceAction` once the member is known.
 * Code outside a scope (executor, scheduler, sign-in, API-key lookup, invitations by token,
 * seeds, tests' fixtures) is not filtered: this is defence in depth for request code.
 */
import { AsyncLocalStorage } from "node:async_hooks";

export type WorkspaceScope = { workspaceId: string };

const state = globalThis as unknown as {
  assayWorkspaceScope?: AsyncLocalStorage<WorkspaceScope>;
  assayScopedTransaction?: AsyncLocalStorage<true>;
};
/** On globalThis so hot reload and Next's separate module graphs share one store. */
const scope = (state.assayWorkspaceScope ??= new AsyncLocalStorage<WorkspaceScope>());
/** Set while the callback of an interactive transaction opened by lib/db.ts runs (already scoped). */
const scopedTransaction = (state.assayScopedTransaction ??= new AsyncLocalStorage<true>());

/** Runs `fn` with every query through `db` restricted to `workspaceId`'s rows. */
export function withWorkspaceScope<T>(workspaceId: string, fn: () => T): T {
  return scope.run({ workspaceId }, () => started(fn()));
}

/**
 * Prisma's query promises are lazy: a query starts when `then` is called, in the async context
 * of that call. A callback that returns one (`() => db.suite.findMany()`) has it started here,
 * inside the scope, rather than by an `await` after the scope was left.
 */
function started<T>(result: T): T {
  if (result !== null && typeof result === "object" && typeof (result as { then?: unknown }).then === "function") {
    const lazy = result as unknown as PromiseLike<unknown>;
    return new Promise((resolve, reject) => lazy.then(resolve, reject)) as T;
  }
  return result;
}

/**
 * Runs `fn` outside any workspace scope: for work that a request only sets off and that serves
 * every workspace (waking the executor), which must not inherit the request's scope.
 */
export function withoutWorkspaceScope<T>(fn: () => T): T {
  return scope.exit(() => scopedTransaction.exit(() => started(fn())));
}

/** The active scope, or undefined outside one. */
export function currentWorkspaceScope(): WorkspaceScope | undefined {
  return scope.getStore();
}

export function inScopedTransaction(): boolean {
  return scopedTransaction.getStore() === true;
}

export function runInScopedTransaction<T>(fn: () => T): T {
  return scopedTransaction.run(true, fn);
}

/**
 * A page loader whose queries run in its workspace's scope (`ctx.workspaceId`): pages get the
 * same row-level defence as API requests and actions. Not for loaders that read across the
 * user's workspaces (the shell's workspace switcher).
 */
export function scopedLoader<C extends { workspaceId: string }, A extends unknown[], R>(
  load: (ctx: C, ...args: A) => Promise<R>,
): (ctx: C, ...args: A) => Promise<R> {
  return (ctx, ...args) => withWorkspaceScope(ctx.workspaceId, () => load(ctx, ...args));
}
