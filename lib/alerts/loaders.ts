import "server-only";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { ValidationError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { scopedLoader } from "@/lib/tenant-scope";
import type { SearchParams } from "@/lib/pages/props";
import { countOpenAlerts, listAlerts, openSuiteAlert, suitesWithAlerts } from "./service";

export const ALERTS_PAGE_SIZE = 20;
export const ALERT_STATUS_FILTERS = ["open", "acknowledged", "all"] as const;
export type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The alerts page's filters from the URL: `suite`, `status` (open by default), `cursor`. */
export function alertsPageFilters(sp: SearchParams) {
  const suite = first(sp.suite);
  const status = first(sp.status);
  return {
    suite: suite && isUuid(suite) ? suite : null,
    status: (ALERT_STATUS_FILTERS as readonly string[]).includes(status ?? "") ? (status as AlertStatusFilter) : "open",
    cursor: first(sp.cursor) ?? null,
  };
}

/** Alerts page: one page of alerts under the URL's filters (a stale cursor shows the first page), the suite filter's options. */
async function loadAlertsPageUnscoped(ctx: WorkspaceContext, sp: SearchParams) {
  const filters = alertsPageFilters(sp);
  const query = {
    limit: ALERTS_PAGE_SIZE,
    ...(filters.suite ? { suite_id: filters.suite } : {}),
    ...(filters.status === "all" ? {} : { acknowledged: filters.status === "acknowledged" ? ("true" as const) : ("false" as const) }),
  };
  const page = await listAlerts(ctx, { ...query, cursor: filters.cursor ?? undefined }).catch((err: unknown) => {
    if (err instanceof ValidationError && filters.cursor) return listAlerts(ctx, query);
    throw err;
  });
  const suites = await suitesWithAlerts(ctx);
  return { alerts: page.data, nextCursor: page.next_cursor, suites, filters };
}

/** The shell's bell: how many alerts of the workspace nobody acknowledged yet. */
async function loadAlertBellUnscoped(ctx: WorkspaceContext) {
  return { open: await countOpenAlerts(ctx) };
}

/** The suite page's banner: its newest open alert (null when none). */
async function loadSuiteAlertBannerUnscoped(ctx: WorkspaceContext, suiteId: string) {
  return openSuiteAlert(ctx, suiteId);
}

// Each loader runs its queries in the workspace's row-level scope (lib/tenant-scope.ts).
export const loadAlertsPage = scopedLoader(loadAlertsPageUnscoped);
export const loadAlertBell = scopedLoader(loadAlertBellUnscoped);
export const loadSuiteAlertBanner = scopedLoader(loadSuiteAlertBannerUnscoped);
