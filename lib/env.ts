import { z } from "zod";

/**
 * Environment, parsed once. Everything else imports `env` instead of reading process.env.
 * The launcher (scripts/launch.mjs) fills DATABASE_URL and AUTH_SECRET for the embedded setup.
 */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v : undefined));

const optionalNonNegativeInt = optionalString
  .transform((v) => (v === undefined ? undefined : Number(v)))
  .pipe(z.number("Use a whole number ≥ 0").int("Use a whole number ≥ 0").min(0, "Use a whole number ≥ 0").max(1_000_000).optional());

// Retention of 0 days and 0 runs would let a cleanup delete every finished run (the settings page
// and API refuse it too: lib/retention/schemas.ts).
const optionalPositiveInt = optionalString
  .transform((v) => (v === undefined ? undefined : Number(v)))
  .pipe(z.number("Use a whole number ≥ 1").int("Use a whole number ≥ 1").min(1, "Use a whole number ≥ 1").max(1_000_000).optional());

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: optionalString,
  AUTH_SECRET: optionalString,
  ASSAY_SECRET: optionalString,
  ASSAY_INIT_USER_EMAIL: optionalString.pipe(z.email().optional()),
  ASSAY_INIT_USER_PASSWORD: optionalString.pipe(z.string().min(8).optional()),
  ASSAY_INIT_WORKSPACE: optionalString,
  ASSAY_INIT_API_KEY: optionalString.pipe(z.string().min(32).optional()),
  ASSAY_ALLOW_PRIVATE_NETWORKS: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v === "true" || v === "1"),
  /** Outbound calls to loopback (local models such as Ollama); on unless "false". */
  ASSAY_ALLOW_LOOPBACK: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v !== "false" && v !== "0"),
  /** Cap on every outbound response body after decompression (model endpoints, HTTP agents, file URLs). */
  ASSAY_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  AUTH_OIDC_ISSUER: optionalString,
  AUTH_OIDC_ID: optionalString,
  AUTH_OIDC_SECRET: optionalString,
  AUTH_OIDC_NAME: optionalString,
  /** Comma-separated email domains an OIDC sign-in must belong to (exact match); unset: any verified email. */
  AUTH_OIDC_ALLOWED_DOMAINS: optionalString.transform((v) =>
    (v ?? "")
      .split(",")
      .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
      .filter(Boolean),
  ),
  /** Who may create a workspace: "admins" = owners/admins of any existing workspace. */
  ASSAY_WORKSPACE_CREATION: z.enum(["anyone", "admins"]).default("admins"),
  /** "true": the client IP is the first X-Forwarded-For entry (set by your reverse proxy). */
  ASSAY_TRUST_PROXY: z
    .enum(["true", "false", "1", "0", ""])
    .optional()
    .transform((v) => v === "true" || v === "1"),
  /** Sessions end after this many hours without a request (rolling). */
  ASSAY_SESSION_IDLE_HOURS: z.coerce
    .number()
    .min(0.1)
    .max(24 * 30)
    .default(12),
  /** argon2 hashes/verifications running at once per process; more wait in line. */
  ASSAY_PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /**
   * Where runs execute: "on" inside the web process (the default of `next start`/`npm run dev`),
   * "process" in an executor process `npm start` runs beside it (the launcher's default), "off"
   * nowhere here (`npm run worker` processes elsewhere).
   */
  ASSAY_EXECUTOR: z.enum(["on", "off", "process"]).default("on"),
  /** Cases one process runs at once across all runs. */
  ASSAY_WORKER_SLOTS: z.coerce.number().int().min(1).max(1000).default(64),
  /** Requests in flight at once per model configuration (and per HTTP agent URL), per process. */
  ASSAY_MODEL_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /**
   * How long one model or HTTP-agent call may wait for a provider's rate limit (its 429s
   * included) before the case records a rate-limit error, in seconds (lib/rate-limits).
   */
  ASSAY_RATE_LIMIT_MAX_WAIT_S: z.coerce.number().min(1).max(86_400).default(600),
  /**
   * Cases of one workspace running at once across every process (web and `npm run worker`s),
   * counted in PostgreSQL from its `running` case results under a per-workspace lock at claim
   * time. Unset or 0: no cap. Set it below the total slots (processes × ASSAY_WORKER_SLOTS) to
   * keep slots free for other workspaces while one runs a huge suite against a slow agent: slots
   * are already shared fairly tick by tick, but a running case is never pre-empted.
   */
  ASSAY_WORKSPACE_MAX_RUNNING: optionalNonNegativeInt.transform((v) => (v ? v : undefined)),
  /**
   * Connections in this process's PostgreSQL pool for requests and Prisma. Budget: every process
   * × this, plus ASSAY_EXECUTOR_POOL_SIZE for each process that runs the executor, plus
   * migrations and psql, must stay below the server's `max_connections` (lib/runs/README.md,
   * "Deployment").
   */
  ASSAY_DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(20),
  /** The executor's own connections (claims, result writes, heartbeat), opened only where it runs. */
  ASSAY_EXECUTOR_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  ASSAY_DIST_DIR: z.string().default(".next"),
  /**
   * Set by the launcher for the processes it supervises: a JSON file where it records each
   * child's state (up, restarting), read by /api/health. Not a setting for operators.
   */
  ASSAY_SUPERVISOR_STATE: optionalString,
  /**
   * Where uploaded and downloaded files live: unset or "postgres" keeps them in
   * PostgreSQL; "s3://bucket[/prefix]?endpoint=…&region=…&force_path_style=true" an S3-compatible
   * bucket (credentials from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY).
   */
  ASSAY_FILE_STORE: optionalString.pipe(
    z
      .string()
      .regex(
        /^(postgres|s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^?]*)?(\?.*)?)$/,
        'Use "postgres" or "s3://bucket[/prefix]?endpoint=…&region=…"',
      )
      .optional(),
  ),
  /** Credentials of the S3-compatible file store (ASSAY_FILE_STORE=s3://…); never taken from the URL. */
  AWS_ACCESS_KEY_ID: optionalString,
  AWS_SECRET_ACCESS_KEY: optionalString,
  AWS_SESSION_TOKEN: optionalString,
  /** Characters of extracted file content added to a case's first user message (the execution model files); more is cut with a marker. */
  ASSAY_FILES_MAX_CHARS: z.coerce.number().int().min(1000).max(10_000_000).default(100_000),
  /** Images sent to vision models are resized so their longest edge is at most this many pixels. */
  ASSAY_IMAGE_MAX_EDGE: z.coerce.number().int().min(64).max(8192).default(1568),
  /** Worker threads reading files (extraction, import bundles) per process; more files wait in line. */
  ASSAY_FILE_WORKERS: z.coerce.number().int().min(1).max(64).default(2),
  /** Wall-clock limit for reading one file in a worker; a file that takes longer fails and its worker is replaced. */
  ASSAY_FILE_EXTRACT_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /** Heap limit of each file worker, MB; a file that needs more fails and its worker is replaced. */
  ASSAY_FILE_EXTRACT_HEAP_MB: z.coerce.number().int().min(64).max(16_384).default(512),
  /** Cells one sheet, range or CSV table may span (empty cells between content included); a workbook may hold twice as many. */
  ASSAY_FILE_MAX_CELLS: z.coerce.number().int().min(1000).max(100_000_000).default(200_000),
  /** Retention (the reference schema), used when the database has no value (lib/retention/settings.ts): nightly cleanup time "HH:MM" (UTC). */
  TEST_SUITES_RETENTION_CLEANUP_TIME: optionalString.pipe(
    z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Use HH:MM (24-hour, UTC)")
      .optional(),
  ),
  /** Days a run is kept by age (at least 1). */
  TEST_SUITES_RETENTION_DAYS: optionalPositiveInt,
  /** Newest completed runs kept per suite whatever their age (at least 1). */
  TEST_SUITES_RETENTION_RUNS: optionalPositiveInt,
  /** Days a traffic conversation (OpenTelemetry) is kept after its last span (at least 1; default 14). */
  TRAFFIC_RETENTION_DAYS: optionalPositiveInt,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = z.infer<typeof envSchema>;

function parseEnv(): Env {
  const parsed = envSchema.safeParse(process.env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

export const env = parseEnv();

/** The secret that derives encryption keys for stored secrets. */
export function secretKeyMaterial(): string {
  const secret = env.ASSAY_SECRET ?? env.AUTH_SECRET;
  if (!secret) throw new Error("ASSAY_SECRET or AUTH_SECRET must be set");
  return secret;
}

export const oidcEnabled = Boolean(env.AUTH_OIDC_ISSUER && env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET);
