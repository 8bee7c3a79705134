import type { RetentionSource } from "./schemas";

/**
 * Retention's public shapes (the API's and the page's). No server-only imports: client
 * components import these types.
 */

export type RetentionSetting<T> = { value: T; source: RetentionSource };
export type RetentionSettings = {
  cleanup_time: RetentionSetting<string>;
  days: RetentionSetting<number>;
  runs: RetentionSetting<number>;
};
export type RetentionValues = { cleanup_time: string; days: number; runs: number };

export type CleanupResult = {
  dry_run: boolean;
  runs_deleted: number;
  results_deleted: number;
  llm_calls_deleted: number;
  bytes_freed_estimate: number;
};

export type CleanupRecordDto = {
  id: string;
  trigger: string;
  dry_run: boolean;
  runs_deleted: number;
  results_deleted: number;
  llm_calls_deleted: number;
  bytes_freed_estimate: number;
  slot: string | null;
  started_at: string;
  completed_at: string | null;
  error: string | null;
};
