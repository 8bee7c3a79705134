-- A running case whose call waits for the provider's rate limit (lib/rate-limits).
ALTER TYPE "CaseStage" ADD VALUE 'waiting_rate_limit' AFTER 'executing_agent';

-- AlterTable
ALTER TABLE "ModelConfig" ADD COLUMN     "maxConcurrency" INTEGER,
ADD COLUMN     "rpm" INTEGER,
ADD COLUMN     "tpm" INTEGER;

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "httpMaxConcurrency" INTEGER,
ADD COLUMN     "httpRpm" INTEGER,
ADD COLUMN     "httpTpm" INTEGER;

-- CreateTable
CREATE TABLE "RateLimitBudget" (
    "key" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "rpm" INTEGER,
    "tpm" INTEGER,
    "maxConcurrency" INTEGER,
    "learnedRpm" DOUBLE PRECISION,
    "learnedTpm" DOUBLE PRECISION,
    "fromHeaders" BOOLEAN NOT NULL DEFAULT false,
    "requests" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "tokens" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "refilledAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "blockedUntil" TIMESTAMPTZ(3),
    "lastLimitedAt" TIMESTAMPTZ(3),
    "decreasedAt" TIMESTAMPTZ(3),
    "sent" INTEGER NOT NULL DEFAULT 0,
    "sentSince" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "RateLimitBudget_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "RateLimitHolder" (
    "key" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "inFlight" INTEGER NOT NULL DEFAULT 0,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "RateLimitHolder_pkey" PRIMARY KEY ("key","owner")
);

-- AddForeignKey
ALTER TABLE "RateLimitHolder" ADD CONSTRAINT "RateLimitHolder_key_fkey" FOREIGN KEY ("key") REFERENCES "RateLimitBudget"("key") ON DELETE CASCADE ON UPDATE CASCADE;


-- The shared budget's two operations (lib/rate-limits/store.ts): one round trip each, under the
-- budget row's lock, so every process sees one budget. The bodies are E-strings with semicolons
-- written as the octal escape 073: prisma migrate deploy splits a script at every semicolon.

-- Takes one request (expected to use p_tokens tokens) from the budget p_key, or says how long to
-- wait and why: 'blocked' (Retry-After or an exhausted x-ratelimit window), 'requests' or 'tokens'
-- (the buckets refill continuously at the limit in force: the lower of the declared and the
-- learned one, a bucket holds at most a quarter second of its limit, at least one request: less
-- than a provider's, so a burst after a pause leaves the provider's bucket some room), or
-- 'concurrency' (p_max requests in flight across live processes). Declared limits are stored as
-- given, so a changed configuration takes effect at its next request.
CREATE FUNCTION assay_rate_take(
  p_key text, p_label text, p_rpm integer, p_tpm integer, p_max integer,
  p_tokens double precision, p_owner text, p_lease_ms integer
) RETURNS TABLE (granted boolean, wait_ms integer, reason text)
LANGUAGE plpgsql AS E'
DECLARE
  b "RateLimitBudget"%ROWTYPE\073
  now_ts timestamptz := clock_timestamp()\073
  elapsed double precision\073
  eff_rpm double precision\073
  eff_tpm double precision\073
  req double precision := 0\073
  tok double precision := 0\073
  need double precision\073
  busy integer\073
  w double precision := 0\073
  why text := NULL\073
BEGIN
  INSERT INTO "RateLimitBudget" ("key", "label", "refilledAt", "sentSince", "updatedAt")
  VALUES (p_key, p_label, now_ts, now_ts, now_ts)
  ON CONFLICT ("key") DO NOTHING\073
  SELECT * INTO b FROM "RateLimitBudget" WHERE "key" = p_key FOR UPDATE\073

  eff_rpm := CASE WHEN p_rpm IS NULL THEN b."learnedRpm" WHEN b."learnedRpm" IS NULL THEN p_rpm ELSE least(p_rpm, b."learnedRpm") END\073
  eff_tpm := CASE WHEN p_tpm IS NULL THEN b."learnedTpm" WHEN b."learnedTpm" IS NULL THEN p_tpm ELSE least(p_tpm, b."learnedTpm") END\073
  elapsed := greatest(0, extract(epoch FROM now_ts - b."refilledAt") * 1000)\073
  IF eff_rpm IS NOT NULL THEN
    req := least(greatest(1, eff_rpm / 240), b."requests" + elapsed * eff_rpm / 60000)\073
  END IF\073
  IF eff_tpm IS NOT NULL THEN
    tok := least(greatest(1, eff_tpm / 240), b."tokens" + elapsed * eff_tpm / 60000)\073
  END IF\073

  IF b."blockedUntil" IS NOT NULL AND b."blockedUntil" > now_ts THEN
    why := ''blocked''\073
    w := extract(epoch FROM b."blockedUntil" - now_ts) * 1000\073
  ELSIF eff_rpm IS NOT NULL AND req < 1 THEN
    why := ''requests''\073
    w := (1 - req) * 60000 / eff_rpm\073
  ELSIF eff_tpm IS NOT NULL THEN
    -- A request larger than the bucket waits for a full bucket, then leaves it in debt.
    need := least(p_tokens, greatest(1, eff_tpm / 240))\073
    IF tok < need THEN
      why := ''tokens''\073
      w := (need - tok) * 60000 / eff_tpm\073
    END IF\073
  END IF\073
  IF why IS NULL AND p_max IS NOT NULL THEN
    SELECT coalesce(sum("inFlight"), 0) INTO busy FROM "RateLimitHolder" WHERE "key" = p_key AND "expiresAt" > now_ts\073
    IF busy >= p_max THEN
      why := ''concurrency''\073
      w := 20\073
    END IF\073
  END IF\073

  UPDATE "RateLimitBudget" SET
    "label" = p_label,
    "rpm" = p_rpm,
    "tpm" = p_tpm,
    "maxConcurrency" = p_max,
    "requests" = req - CASE WHEN why IS NULL AND eff_rpm IS NOT NULL THEN 1 ELSE 0 END,
    "tokens" = tok - CASE WHEN why IS NULL AND eff_tpm IS NOT NULL THEN p_tokens ELSE 0 END,
    "refilledAt" = now_ts,
    "sent" = CASE WHEN now_ts - b."sentSince" > interval ''1 minute'' THEN 0 ELSE b."sent" END + (why IS NULL)::integer,
    "sentSince" = CASE WHEN now_ts - b."sentSince" > interval ''1 minute'' THEN now_ts ELSE b."sentSince" END,
    "updatedAt" = now_ts
  WHERE "key" = p_key\073

  IF why IS NULL AND p_max IS NOT NULL THEN
    INSERT INTO "RateLimitHolder" ("key", "owner", "inFlight", "expiresAt")
    VALUES (p_key, p_owner, 1, now_ts + p_lease_ms * interval ''1 millisecond'')
    ON CONFLICT ("key", "owner") DO UPDATE SET
      "inFlight" = CASE WHEN "RateLimitHolder"."expiresAt" > now_ts THEN "RateLimitHolder"."inFlight" + 1 ELSE 1 END,
      "expiresAt" = excluded."expiresAt"\073
  END IF\073
  RETURN QUERY SELECT why IS NULL, ceil(w)::integer, why\073
END ';

-- Settles one request taken with assay_rate_take (or sent unpaced): gives back the tokens it was
-- expected to use beyond what it used (p_refund, negative when it used more), frees its
-- concurrency slot, and records what the provider said:
-- - p_limit_rpm / p_limit_tpm: x-ratelimit-limit-* headers, adopted as the learned limits,
-- - p_block_ms: no request for this long (Retry-After, or a window with nothing remaining),
-- - p_limited (a 429): the buckets empty, the learned request rate halves (multiplicative
--   decrease, of the rate observed when nothing was learned yet: the paced requests of the last
--   minute here, or what the process says it sent, p_observed_rpm, either from 10 requests on),
--   or drops 3 % below a limit the headers gave, at most once a second (the 429s of one burst are
--   one event),
-- - p_success: additive increase of a lowered rate, half a request per minute per answered
--   request once a second has passed since the last 429, up to the header-given limit, a rate
--   learned without headers that reaches the declared limit is forgotten.
CREATE FUNCTION assay_rate_settle(
  p_key text, p_label text, p_owner text, p_release boolean, p_refund double precision,
  p_block_ms integer, p_limited boolean, p_success boolean,
  p_limit_rpm double precision, p_limit_tpm double precision, p_observed_rpm double precision
) RETURNS void
LANGUAGE plpgsql AS E'
DECLARE
  b "RateLimitBudget"%ROWTYPE\073
  now_ts timestamptz := clock_timestamp()\073
  observed double precision\073
  learned double precision\073
BEGIN
  INSERT INTO "RateLimitBudget" ("key", "label", "refilledAt", "sentSince", "updatedAt")
  VALUES (p_key, p_label, now_ts, now_ts, now_ts)
  ON CONFLICT ("key") DO NOTHING\073
  SELECT * INTO b FROM "RateLimitBudget" WHERE "key" = p_key FOR UPDATE\073
  learned := b."learnedRpm"\073

  IF p_limited AND b."decreasedAt" IS NOT NULL AND now_ts - b."decreasedAt" < interval ''1 second'' THEN
    -- One decrease per congestion event: the 429s of one burst arrive together.
    NULL\073
  ELSIF p_limit_rpm IS NOT NULL THEN
    IF p_limited THEN
      learned := least(coalesce(learned, p_limit_rpm), p_limit_rpm) * 0.97\073
    ELSIF NOT b."fromHeaders" OR learned IS NULL OR learned > p_limit_rpm THEN
      learned := p_limit_rpm\073
    ELSIF b."lastLimitedAt" IS NULL OR now_ts - b."lastLimitedAt" > interval ''1 second'' THEN
      learned := least(p_limit_rpm, learned + 0.5)\073
    END IF\073
  ELSIF p_limited THEN
    IF learned IS NOT NULL AND NOT b."fromHeaders" THEN
      learned := greatest(1, learned * 0.5)\073
    ELSE
      -- What was being sent: paced requests are counted here (from 10 on), unpaced ones by the
      -- process (p_observed_rpm, likewise from 10 requests). Fewer say nothing about a rate: the
      -- 429''s hold alone applies.
      observed := greatest(
        CASE WHEN b."sent" >= 10 THEN b."sent" * 60000 / greatest(1000, extract(epoch FROM now_ts - b."sentSince") * 1000) ELSE 0 END,
        coalesce(p_observed_rpm, 0))\073
      learned := CASE WHEN observed > 0 THEN greatest(1, observed * 0.5) ELSE NULL END\073
    END IF\073
  ELSIF p_success AND learned IS NOT NULL AND NOT b."fromHeaders"
        AND (b."lastLimitedAt" IS NULL OR now_ts - b."lastLimitedAt" > interval ''1 second'') THEN
    learned := learned + 0.5\073
    IF b."rpm" IS NOT NULL AND learned >= b."rpm" THEN
      learned := NULL\073
    END IF\073
  END IF\073

  UPDATE "RateLimitBudget" SET
    "label" = p_label,
    "learnedRpm" = learned,
    "learnedTpm" = coalesce(p_limit_tpm, "learnedTpm"),
    "fromHeaders" = CASE WHEN p_limit_rpm IS NOT NULL OR p_limit_tpm IS NOT NULL THEN true WHEN p_limited THEN false ELSE "fromHeaders" END,
    "tokens" = CASE WHEN p_limited THEN least("tokens", 0) ELSE "tokens" + p_refund END,
    "requests" = CASE WHEN p_limited THEN least("requests", 0) ELSE "requests" END,
    "blockedUntil" = CASE WHEN p_block_ms > 0
      THEN greatest(coalesce("blockedUntil", now_ts), now_ts + p_block_ms * interval ''1 millisecond'')
      ELSE "blockedUntil" END,
    "lastLimitedAt" = CASE WHEN p_limited THEN now_ts ELSE "lastLimitedAt" END,
    "decreasedAt" = CASE WHEN p_limited AND learned IS DISTINCT FROM b."learnedRpm" THEN now_ts ELSE "decreasedAt" END,
    "updatedAt" = now_ts
  WHERE "key" = p_key\073

  IF p_release THEN
    UPDATE "RateLimitHolder" SET "inFlight" = greatest(0, "inFlight" - 1) WHERE "key" = p_key AND "owner" = p_owner\073
  END IF\073
END ';
