// @ts-check
/**
 * A small client for Assay's REST API (/api/v1) with fetch: bearer key, JSON in and out, the
 * error envelope `{error: {code, message, issues}}` turned into an ApiError, and a connection
 * failure into an UnreachableError (exit 3).
 */
import { ApiError, UnreachableError, UsageError } from "./errors.mjs";

/** @typedef {Record<string, string | number | boolean | string[] | undefined | null>} Query */

export class AssayApi {
  /**
   * @param {{url?: string, apiKey?: string, timeoutMs?: number}} opts
   */
  constructor({ url, apiKey, timeoutMs = 60_000 }) {
    if (!url) throw new UsageError("No Assay URL: set ASSAY_URL or pass --url (for example http://localhost:3000)");
    if (!apiKey) throw new UsageError("No API key: set ASSAY_API_KEY or pass --api-key (Workspace settings → API keys)");
    let base;
    try {
      base = new URL(url);
    } catch {
      throw new UsageError(`--url / ASSAY_URL is not a URL: "${url}"`);
    }
    if (base.protocol !== "http:" && base.protocol !== "https:") throw new UsageError(`--url must be http(s), got "${url}"`);
    // Accept both http://host and http://host/api/v1 (and a trailing slash).
    this.base = `${base.origin}${base.pathname.replace(/\/+$/, "").replace(/\/api\/v1$/, "")}/api/v1`;
    this.apiKey = apiKey;
    this.timeoutMs = timeoutMs;
  }

  /**
   * @param {string} path path under /api/v1, starting with "/"
   * @param {Query} [query]
   */
  url(path, query = {}) {
    const u = new URL(this.base + path);
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null) continue;
      for (const one of Array.isArray(v) ? v : [v]) u.searchParams.append(k, String(one));
    }
    return u.toString();
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {{query?: Query, json?: unknown, body?: string | Uint8Array<ArrayBuffer>, contentType?: string}} [opts]
   * @returns {Promise<Response>}
   */
  async raw(method, path, opts = {}) {
    /** @type {Record<string, string>} */
    const headers = { authorization: `Bearer ${this.apiKey}`, accept: "application/json" };
    let body;
    if (opts.json !== undefined) {
      body = JSON.stringify(opts.json);
      headers["content-type"] = "application/json";
    } else if (opts.body !== undefined) {
      body = opts.body;
      headers["content-type"] = opts.contentType ?? "application/json";
    }
    const url = this.url(path, opts.query);
    let res;
    try {
      res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (err) {
      const cause = /** @type {{cause?: {code?: string, message?: string}, message?: string}} */ (err);
      const why = cause.cause?.code ?? cause.cause?.message ?? cause.message ?? String(err);
      throw new UnreachableError(`Cannot reach Assay at ${new URL(this.base).origin} (${why})`);
    }
    if (!res.ok) throw await toApiError(res, method, path);
    return res;
  }

  /**
   * @param {string} method
   * @param {string} path
   * @param {{query?: Query, json?: unknown, body?: string | Uint8Array<ArrayBuffer>, contentType?: string}} [opts]
   * @returns {Promise<any>} the parsed JSON answer (arbitrary API shapes)
   */
  async json(method, path, opts = {}) {
    const res = await this.raw(method, path, opts);
    if (res.status === 204) return null;
    const text = await res.text();
    try {
      return JSON.parse(text);
    } catch {
      throw new ApiError(res.status, "bad_response", `${method} ${path} answered ${res.status} with a body that is not JSON`);
    }
  }

  /** @param {string} path @param {Query} [query] */
  get(path, query) {
    return this.json("GET", path, { query });
  }

  /** @param {string} path @param {unknown} json */
  post(path, json) {
    return this.json("POST", path, { json });
  }

  /**
   * Every item of a paginated list (`{data, next_cursor}`), page by page.
   * @param {string} path
   * @param {Query} [query]
   * @returns {Promise<any[]>}
   */
  async list(path, query = {}) {
    const out = [];
    /** @type {string | undefined} */
    let cursor;
    for (;;) {
      const page = await this.get(path, { ...query, limit: 200, cursor });
      out.push(...page.data);
      if (!page.next_cursor) return out;
      cursor = page.next_cursor;
    }
  }
}

/**
 * @param {Response} res
 * @param {string} method
 * @param {string} path
 */
async function toApiError(res, method, path) {
  const text = await res.text().catch(() => "");
  /** @type {any} */
  let parsed = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const envelope = parsed && typeof parsed === "object" ? parsed.error : null;
  if (envelope && typeof envelope.message === "string") {
    const issues = Array.isArray(envelope.issues) ? envelope.issues : [];
    return new ApiError(res.status, String(envelope.code ?? "error"), envelope.message, issues);
  }
  // No envelope: not one of Assay's API routes (an older server without this endpoint, or a proxy).
  const hint = res.status === 404 ? ": this server has no such endpoint (an older Assay version?)" : "";
  return new ApiError(res.status, "http_error", `${method} ${path} answered HTTP ${res.status}${hint}`);
}
