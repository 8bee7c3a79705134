import type { CaseResultDto } from "@/lib/runs/serialize";

/**
 * The slim case result the run page's table polls for: no transcript, snapshot or verdict
 * details (those are loaded per case), so a live table stays cheap to refresh every second.
 */
export type CaseResultRow = {
  id: string;
  test_case_id: string | null;
  variant: CaseResultDto["variant"];
  position: number;
  status: CaseResultDto["status"];
  name: string;
  tags: string[];
  prompt_tokens: number;
  completion_tokens: number;
  latency_ms: number | null;
  duration_ms: number | null;
  retry_count: number;
  turns: number;
  error_message: string | null;
  error_type: string | null;
};

/** Rows per page of the run page's case table. */
export const CASE_PAGE_SIZE = 50;

export type CaseResultPage = { data: CaseResultRow[]; next_cursor: string | null };

export function toCaseResultRow(r: CaseResultDto): CaseResultRow {
  return {
    id: r.id,
    test_case_id: r.test_case_id,
    variant: r.variant,
    position: r.position,
    status: r.status,
    name: r.name,
    tags: r.tags,
    prompt_tokens: r.prompt_tokens,
    completion_tokens: r.completion_tokens,
    latency_ms: r.latency_ms,
    duration_ms: r.duration_ms,
    retry_count: r.retry_count,
    turns: r.turns,
    error_message: r.error_message,
    error_type: r.error_type,
  };
}

export function toCaseResultPage(page: { data: CaseResultDto[]; next_cursor: string | null }): CaseResultPage {
  return { data: page.data.map(toCaseResultRow), next_cursor: page.next_cursor };
}
