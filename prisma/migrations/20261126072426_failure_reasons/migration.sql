-- Spec fidelity (issue 10). A case results errorMessage holds errors only: a failed case
-- reasons move to failureReasons, and why the conversation ended (safety cap, max_turns, …) to
-- endReason. retryCount counts the agent retries only (spec 003), the judge, simulator, check
-- and metric retries are counted apart in evaluatorRetryCount.
ALTER TABLE "CaseResult" ADD COLUMN "failureReasons" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "endReason" TEXT,
ADD COLUMN "evaluatorRetryCount" INTEGER NOT NULL DEFAULT 0;

-- Earlier results: a failed case reason (one ", "-joined text, maybe with a safety cap note)
-- and a passed case safety cap note were written to errorMessage.
UPDATE "CaseResult" SET
  "endReason" = CASE WHEN "errorMessage" LIKE '%(stopped by the token safety cap)%' THEN 'token_cap'
                     WHEN "errorMessage" LIKE '%(stopped by the turn safety cap)%' THEN 'safety_cap' END,
  "failureReasons" = CASE WHEN "status" = 'failed'
    THEN array_remove(regexp_split_to_array(
           btrim(regexp_replace("errorMessage", ' ?\(stopped by the (turn|token) safety cap\)', '')), chr(59) || ' '), '')
    ELSE ARRAY[]::TEXT[] END,
  "errorMessage" = NULL
WHERE "status" IN ('passed', 'failed') AND "errorType" IS NULL AND "errorMessage" IS NOT NULL;

-- Earlier retryCount summed every calls retries, the agent own are in agentStats when recorded.
UPDATE "CaseResult" SET
  "evaluatorRetryCount" = greatest("retryCount" - ("agentStats"->>'retry_count')::int, 0),
  "retryCount" = ("agentStats"->>'retry_count')::int
WHERE "agentStats" IS NOT NULL AND jsonb_typeof("agentStats"->'retry_count') = 'number';

-- Spec 000 metric thresholds are on the metric own scale (threshold 4 with scale 5), no longer
-- on the normalised 0..1: t becomes 1 + t × (scale − 1), which passes exactly the same scores.
-- Suites, and the snapshot of runs that have not finished yet.
UPDATE "Suite" s SET "metrics" = (
  SELECT jsonb_agg(CASE WHEN jsonb_typeof(m->'threshold') = 'number'
           THEN jsonb_set(m, '{threshold}', to_jsonb(round(1 + (m->>'threshold')::numeric * (coalesce((m->>'scale')::numeric, 5) - 1), 4)))
           ELSE m END ORDER BY i)
  FROM jsonb_array_elements(s."metrics") WITH ORDINALITY AS e(m, i))
WHERE jsonb_typeof(s."metrics") = 'array' AND jsonb_array_length(s."metrics") > 0;

UPDATE "Run" r SET "evalSnapshot" = jsonb_set(r."evalSnapshot", '{metrics}', (
  SELECT jsonb_agg(CASE WHEN jsonb_typeof(m->'threshold') = 'number'
           THEN jsonb_set(m, '{threshold}', to_jsonb(round(1 + (m->>'threshold')::numeric * (coalesce((m->>'scale')::numeric, 5) - 1), 4)))
           ELSE m END ORDER BY i)
  FROM jsonb_array_elements(r."evalSnapshot"->'metrics') WITH ORDINALITY AS e(m, i)))
WHERE r."status" IN ('pending', 'running') AND jsonb_typeof(r."evalSnapshot"->'metrics') = 'array'
  AND jsonb_array_length(r."evalSnapshot"->'metrics') > 0;
