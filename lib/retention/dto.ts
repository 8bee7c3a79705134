import type { z } from "zod";
import type { cleanupResponse, retentionSettingsResponse } from "./openapi";

/**
 * Retention's public shapes (the API's and the page's). No server-only imports: client
 * components import these types.
 */

export type RetentionSettings = z.output<typeof retentionSettingsResponse>;
/** One value with where it came from (database, env or default). */
export type RetentionSetting<T> = { value: T; source: RetentionSettings["days"]["source"] };
export type RetentionValues = { cleanup_time: string; days: number; runs: number; traffic_days: number };

export type CleanupResult = z.output<typeof cleanupResponse>;

export type CleanupRecordDto = {
  id: string;
  trigger: string;
  dry_run: boolean;
  runs_deleted: number;
  results_deleted: number;
  llm_calls_deleted: number;
  conversations_deleted: number;
  bytes_freed_estimate: number;
  slot: string | null;
  started_at: string;
  completed_at: string | null;
  error: string | null;
};
