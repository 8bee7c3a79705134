/**
 * URL files (the execution model's `url`, `cache`) against a local node:http server: downloads through the
 * network guard, ETag / Last-Modified revalidation (304 reuses the stored copy), `cache: false`,
 * and the refusals (blocked address before any connection, content type, size cap, status,
 * content that is not the declared type, time limit). Loopback only: every guarded fetch here
 * connects through a connector that refuses anything else.
 */
import http from "node:http";
import { Readable } from "node:stream";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { fileInputSchema, fileIdOf, MAX_FILE_BYTES, type FileInputDocument } from "@/lib/files/schemas";
import { processFileInput, resetFileProcessingCaches, type ProcessOptions } from "@/lib/files/processing";
import { createGuardedFetch } from "@/lib/net/safe-fetch";
import { makeWorkspace } from "../helpers/factories";
import { loopbackConnector, withLoopbackServer } from "../helpers/loopback";
import { makePdf } from "./fixtures";

const { connected, connect: loopbackOnly } = loopbackConnector();
const guarded = createGuardedFetch({
  allowLoopback: true,
  allowPrivateNetworks: false,
  maxResponseBytes: MAX_FILE_BYTES,
  connect: loopbackOnly,
});

type Seen = { path: string; headers: http.IncomingHttpHeaders };
const seen: Seen[] = [];
let etag = '"v1"';
let body = "Version one of the policy.";
let pdf: Buffer;

beforeAll(async () => {
  pdf = await makePdf(["Remote PDF page"]);
});
const site = withLoopbackServer((req, res) => {
  const path = new URL(req.url!, "http://x").pathname;
  seen.push({ path, headers: req.headers });
  if (path === "/etag.txt") {
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, { etag });
      return res.end();
    }
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8", etag });
    return res.end(body);
  }
  if (path === "/modified.txt") {
    const stamp = "Wed, 21 Oct 2026 07:28:00 GMT";
    if (req.headers["if-modified-since"] === stamp) {
      res.writeHead(304);
      return res.end();
    }
    res.writeHead(200, { "content-type": "text/plain", "last-modified": stamp });
    return res.end("dated content");
  }
  if (path === "/report.pdf") {
    res.writeHead(200, { "content-type": "application/pdf" });
    return res.end(pdf);
  }
  if (path === "/login.html") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    return res.end("<html><body>Please sign in</body></html>");
  }
  if (path === "/fake.pdf") {
    res.writeHead(200, { "content-type": "application/octet-stream" });
    return res.end("just some text, not a PDF");
  }
  if (path === "/declared-huge") {
    res.writeHead(200, { "content-type": "text/plain", "content-length": String(MAX_FILE_BYTES + 1) });
    return res.end("x");
  }
  if (path === "/streamed-huge") {
    res.writeHead(200, { "content-type": "text/plain" });
    const chunk = Buffer.alloc(1024 * 1024, 120);
    let left = 27;
    return Readable.from(
      (function* () {
        while (left-- > 0) yield chunk;
      })(),
    ).pipe(res);
  }
  if (path === "/hang") return; // never answers
  res.writeHead(404, { "content-type": "text/plain" });
  res.end("not here");
});
beforeEach(() => {
  resetFileProcessingCaches();
  seen.length = 0;
  connected.length = 0;
});

const input = (doc: FileInputDocument) => fileInputSchema.parse(doc);
async function options(extra: Partial<ProcessOptions> = {}): Promise<ProcessOptions> {
  const { ctx } = await makeWorkspace("editor");
  return { workspaceId: ctx.workspaceId, fetch: guarded, urlFreshMs: 0, ...extra };
}

describe("URL files", () => {
  it("downloads once, then revalidates with If-None-Match and reuses the stored copy on 304; a new ETag downloads again", async () => {
    etag = '"v1"';
    body = "Version one of the policy.";
    const opts = await options();
    const file = input({ url: `${site.base}/etag.txt?token=secret`, type: "text" });
    const first = await processFileInput(file, opts);
    expect(first.processed).toMatchObject({
      error: null,
      markdown_content: "Version one of the policy.",
      metadata: { url_cache: "downloaded", name: "etag.txt" },
    });
    const id = fileIdOf(first.processed.cached_path);
    expect(id).not.toBeNull();
    const stored = await db.storedFile.findFirstOrThrow({ where: { id: id!, workspaceId: opts.workspaceId } });
    expect(stored.origin).toBe("url");
    expect(await db.urlFileCache.findFirst({ where: { workspaceId: opts.workspaceId } })).toMatchObject({ fileId: id, etag: '"v1"' });
    expect(seen[0]!.headers["if-none-match"]).toBeUndefined();

    const second = await processFileInput(file, opts);
    expect(seen[1]!.headers["if-none-match"]).toBe('"v1"');
    expect(second.processed).toMatchObject({
      error: null,
      cached_path: first.processed.cached_path,
      metadata: { url_cache: "not_modified" },
    });
    expect(second.processed.markdown_content).toBe("Version one of the policy.");

    etag = '"v2"';
    body = "Version two.";
    const third = await processFileInput(file, opts);
    expect(third.processed).toMatchObject({ markdown_content: "Version two.", metadata: { url_cache: "downloaded" } });
    expect(third.processed.cached_path).not.toBe(first.processed.cached_path);
    expect(await db.urlFileCache.count({ where: { workspaceId: opts.workspaceId } })).toBe(1);
  });

  it("revalidates with If-Modified-Since when the server sent Last-Modified", async () => {
    const opts = await options();
    const file = input({ url: `${site.base}/modified.txt`, type: "text" });
    const first = await processFileInput(file, opts);
    const second = await processFileInput(file, opts);
    expect(seen[1]!.headers["if-modified-since"]).toBe("Wed, 21 Oct 2026 07:28:00 GMT");
    expect(second.processed).toMatchObject({ error: null, cached_path: first.processed.cached_path, markdown_content: "dated content" });
  });

  it("within the freshness window, concurrent and later cases reuse one download", async () => {
    const opts = await options({ urlFreshMs: 60_000 });
    const file = input({ url: `${site.base}/report.pdf`, type: "pdf" });
    const all = await Promise.all(Array.from({ length: 5 }, () => processFileInput(file, opts)));
    await processFileInput(file, opts);
    expect(seen.filter((s) => s.path === "/report.pdf")).toHaveLength(1);
    expect(all.every((r) => r.processed.error === null && r.processed.markdown_content.includes("Remote PDF page"))).toBe(true);
  });

  it("cache: false downloads every time, sends no validators and stores nothing", async () => {
    const opts = await options();
    const file = input({ url: `${site.base}/etag.txt`, type: "text", cache: false });
    const first = await processFileInput(file, opts);
    await processFileInput(file, opts);
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.headers["if-none-match"] === undefined)).toBe(true);
    expect(first.processed).toMatchObject({ error: null, cached_path: null, metadata: { url_cache: "disabled" } });
    expect(await db.storedFile.count({ where: { workspaceId: opts.workspaceId } })).toBe(0);
    expect(await db.urlFileCache.count({ where: { workspaceId: opts.workspaceId } })).toBe(0);
  });

  it("refuses link-local (metadata) and private addresses before connecting", async () => {
    const opts = await options();
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.7/report.pdf", "http://[fe80::1]/x.pdf"]) {
      const { processed } = await processFileInput(input({ url, type: "pdf" }), opts);
      expect(processed.error, url).toMatch(/may not be fetched/);
      expect(processed.markdown_content).toBe("");
    }
    expect(connected).toEqual([]);
  });

  it("refuses a content type that is not the declared type, content that is not it, and error statuses", async () => {
    const opts = await options();
    const html = await processFileInput(input({ url: `${site.base}/login.html`, type: "pdf" }), opts);
    expect(html.processed.error).toBe(`${site.base}/login.html is served as text/html, which is not a pdf file`);
    const fake = await processFileInput(input({ url: `${site.base}/fake.pdf`, type: "pdf" }), opts);
    expect(fake.processed.error).toMatch(new RegExp(`^${site.base}/fake\\.pdf returned .+ content, not a pdf file$`));
    const missing = await processFileInput(input({ url: `${site.base}/nothing.pdf`, type: "pdf" }), opts);
    expect(missing.processed.error).toBe(`${site.base}/nothing.pdf answered HTTP 404`);
  });

  it("refuses files over 25 MB, whether announced or streamed", async () => {
    const opts = await options();
    const declared = await processFileInput(input({ url: `${site.base}/declared-huge`, type: "text" }), opts);
    expect(declared.processed.error).toMatch(/declared-huge is larger than 25 MB/);
    const streamed = await processFileInput(input({ url: `${site.base}/streamed-huge`, type: "text", cache: false }), opts);
    expect(streamed.processed.error).toBe(`${site.base}/streamed-huge is larger than 25 MB`);
  });

  it("gives up on a server that does not answer within the time limit", async () => {
    const opts = await options({ timeoutMs: 300 });
    const { processed } = await processFileInput(input({ url: `${site.base}/hang`, type: "text" }), opts);
    expect(processed.error).toBe(`${site.base}/hang did not answer within 300 ms`);
  });
});
