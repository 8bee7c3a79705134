import http from "node:http";
import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll } from "vitest";

/**
 * The app's real /api/v1 route handlers behind a loopback HTTP server, so a child process (the
 * `assay` CLI) can talk to them over HTTP. Routes are found on disk (app/api/v1/**\/route.ts)
 * and imported on first use, so routes added later (matrices, presets) are served without
 * changing this file. What Next adds around a handler (middleware/proxy, headers config) is not
 * here: the handlers do their own auth (withApi), which is what the CLI talks to.
 */

type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<string, Handler>>;
type Route = { file: string; segments: string[] };

const API_ROOT = path.resolve(import.meta.dirname, "../../app/api/v1");

function findRoutes(dir: string, segments: string[] = []): Route[] {
  const out: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...findRoutes(path.join(dir, entry.name), [...segments, entry.name]));
    else if (entry.name === "route.ts") out.push({ file: path.join(dir, entry.name), segments });
  }
  return out;
}

/** The route for `/api/v1/...` path segments, static segments before `[param]` ones; with its params. */
function match(routes: Route[], parts: string[]): { route: Route; params: Record<string, string> } | null {
  let best: { route: Route; params: Record<string, string>; score: number } | null = null;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let score = 0;
    const ok = route.segments.every((seg, i) => {
      const part = parts[i]!;
      const dynamic = /^\[(\w+)\]$/.exec(seg);
      if (dynamic) {
        params[dynamic[1]!] = decodeURIComponent(part);
        return true;
      }
      score += 1;
      return seg === part;
    });
    if (ok && (!best || score > best.score)) best = { route, params, score };
  }
  return best;
}

export type AppServer = { url: string; close: () => Promise<void> };

export async function startAppServer(): Promise<AppServer> {
  const routes = findRoutes(API_ROOT);
  const modules = new Map<string, Promise<RouteModule>>();
  const load = (file: string) => {
    if (!modules.has(file)) modules.set(file, import(/* @vite-ignore */ file) as Promise<RouteModule>);
    return modules.get(file)!;
  };

  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const parts = url.pathname.replace(/\/+$/, "").split("/").slice(1);
      const found = parts[0] === "api" && parts[1] === "v1" ? match(routes, parts.slice(2)) : null;
      const method = (req.method ?? "GET").toUpperCase();
      const handler = found ? (await load(found.route.file))[method] : undefined;
      if (!found || !handler) {
        // What Next answers for a path without a route: an HTML page, not the API's envelope.
        res.writeHead(found ? 405 : 404, { "content-type": "text/html" }).end("<!DOCTYPE html><h1>Not Found</h1>");
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
      }
      const body = method === "GET" || method === "HEAD" ? undefined : new Uint8Array(Buffer.concat(chunks));
      const request = new NextRequest(url, { method, headers, body });
      const response = await handler(request, { params: Promise.resolve(found.params) });
      const out = Buffer.from(await response.arrayBuffer());
      res.writeHead(response.status, Object.fromEntries(response.headers)).end(out);
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A CLI test file's surroundings: the app server (its `url` for ASSAY_URL) and a scratch directory
 * (`dir`, named from `prefix`) for the files the CLI reads and writes, both started before the
 * file's tests and removed after them.
 */
export function withCliServer(prefix: string): { url: string; dir: string } {
  const cli = { url: "", dir: "" };
  let app: AppServer | undefined;
  beforeAll(async () => {
    app = await startAppServer();
    cli.url = app.url;
    cli.dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await app?.close();
    if (cli.dir) await rm(cli.dir, { recursive: true, force: true });
  });
  return cli;
}

/** A loopback port nothing listens on (bound, then closed). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export type CliResult = { code: number; stdout: string; stderr: string };

const CLI = path.resolve(import.meta.dirname, "../../lib/cli/assay.mjs");

/** Runs the checkout's CLI with only the given environment (plus PATH), never the caller's ASSAY_* values. */
export function runAssay(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH ?? "", NODE_ENV: "test", ASSAY_POLL_MS: "50", ...env }, timeout: 25_000, encoding: "utf8" },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
