import { execFile, execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withRunStack } from "../helpers/run-stack";
import { makeApiKey, makeSuiteWithCases, makeWorkspace } from "../helpers/factories";
import { startAppServer, type AppServer } from "./app-server";

/**
 * The assay-cli package (lib/cli/package.json) as a CI machine gets it: `npm pack lib/cli`, then
 * `npm install --global` of the tarball into an empty prefix, then the installed `assay` bin runs
 * a real suite against the app's routes on loopback (runs executed on the fake OpenAI server).
 * Holds what splitting the CLI out of the app is for: a small install (commander and the CLI's
 * own files, not the app's dependencies) that knows its version and works on the oldest Node it
 * supports.
 *
 * commander comes from a registry on loopback that serves only commander, packed from the app's
 * node_modules (npm packs reproducibly: the same integrity as the published tarball). npm's own
 * cache cannot stand in with `--offline`: installing a tarball makes npm (11) read commander's full
 * packument, which `npm ci` never caches. A temporary HOME and cache keep the user's npm
 * configuration and cache out of it, and nothing leaves the machine.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI_DIR = path.join(ROOT, "lib/cli");
const appVersion = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;
const execFileAsync = promisify(execFile);

/**
 * Node 20 when the machine has one (the CLI's lowest supported major, engines ">=20"; the app and
 * these tests run on Node 22+), else this process's Node, which still proves the install works.
 */
function oldestNode(): { bin: string; version: string } {
  const onPath = (process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, "node"));
  for (const bin of ["/usr/bin/node", ...onPath]) {
    if (!existsSync(bin)) continue;
    const version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
    if (version.startsWith("v20.")) return { bin, version };
  }
  return { bin: process.execPath, version: process.version };
}

type Registry = { url: string; close: () => Promise<void> };

/** A registry on loopback that knows one package, from its packed tarball; anything else is a 404. */
async function startRegistry(
  packed: { name: string; version: string; filename: string; integrity: string },
  tarball: Buffer,
): Promise<Registry> {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, "node_modules", packed.name, "package.json"), "utf8")) as object;
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://127.0.0.1").pathname);
    if (pathname === `/${packed.name}`) {
      const packument = {
        name: packed.name,
        "dist-tags": { latest: packed.version },
        versions: {
          [packed.version]: {
            ...manifest,
            dist: { tarball: `${registry.url}/${packed.name}/-/${packed.filename}`, integrity: packed.integrity },
          },
        },
      };
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument));
    } else if (pathname === `/${packed.name}/-/${packed.filename}`) {
      res.writeHead(200, { "content-type": "application/octet-stream" }).end(tarball);
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":"Not found"}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const registry: Registry = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return registry;
}

type Packed = { name: string; version: string; filename: string; integrity: string; files: { path: string }[] };

/** Bytes of every file under `dir`, its node_modules included. */
function treeBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const full = path.join(dir, entry.name);
    return sum + (entry.isDirectory() ? treeBytes(full) : lstatSync(full).size);
  }, 0);
}

const { fake } = withRunStack();
const node = oldestNode();
let app: AppServer;
let registry: Registry;
let tmp: string;
let prefix: string;
let packedCli: Packed;

beforeAll(async () => {
  app = await startAppServer();
  tmp = await mkdtemp(path.join(tmpdir(), "assay-cli-package-"));
  prefix = path.join(tmp, "prefix");
  const npmEnv = {
    PATH: process.env.PATH ?? "",
    NODE_ENV: "test" as const,
    HOME: tmp,
    npm_config_cache: path.join(tmp, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false",
  };
  // Packing needs no registry: an unreachable one (port 9, discard) makes sure nothing is fetched.
  const npm = async (args: string[], registryUrl = "http://127.0.0.1:9") =>
    (await execFileAsync("npm", args, { cwd: tmp, env: { ...npmEnv, npm_config_registry: `${registryUrl}/` }, timeout: 30_000 })).stdout;

  const [commander] = JSON.parse(
    await npm(["pack", path.join(ROOT, "node_modules/commander"), "--pack-destination", tmp, "--ignore-scripts", "--json"]),
  ) as Packed[];
  registry = await startRegistry(commander!, await readFile(path.join(tmp, commander!.filename)));
  packedCli = (JSON.parse(await npm(["pack", CLI_DIR, "--pack-destination", tmp, "--json"])) as Packed[])[0]!;
  await npm(["install", "--global", "--prefix", prefix, "--no-audit", "--no-fund", path.join(tmp, packedCli.filename)], registry.url);
}, 60_000);

afterAll(async () => {
  await registry?.close();
  await app.close();
  await rm(tmp, { recursive: true, force: true });
});

type Result = { code: number; stdout: string; stderr: string };

/** The installed bin as a shell finds it, on the chosen Node (its folder first on PATH: the bin's `#!/usr/bin/env node`). */
function installedAssay(args: string[], env: Record<string, string> = {}): Promise<Result> {
  const PATH = [path.dirname(node.bin), process.env.PATH ?? ""].join(path.delimiter);
  return new Promise((resolve) => {
    execFile(
      path.join(prefix, "bin/assay"),
      args,
      { cwd: tmp, env: { PATH, NODE_ENV: "test", ASSAY_POLL_MS: "50", ...env }, timeout: 25_000, encoding: "utf8" },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : -1) : 0, stdout, stderr }),
    );
  });
}

describe("the assay-cli package", () => {
  it("has the app's version and ships only the CLI's modules, its README and package.json", () => {
    const cliPackage = JSON.parse(readFileSync(path.join(CLI_DIR, "package.json"), "utf8")) as { version: string };
    expect(cliPackage.version).toBe(appVersion);
    expect(packedCli).toMatchObject({ name: "assay-cli", version: appVersion });
    const modules = readdirSync(CLI_DIR).filter((f) => f.endsWith(".mjs"));
    expect(modules).toContain("assay.mjs");
    expect(packedCli.files.map((f) => f.path).sort()).toEqual([...modules, "README.md", "package.json"].sort());
  });

  it("installs from its tarball as a copy with commander, under 5 MB", () => {
    const installed = path.join(prefix, "lib/node_modules/assay-cli");
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    expect(readdirSync(path.join(installed, "node_modules"))).toEqual(["commander"]);
    expect(treeBytes(installed)).toBeLessThan(5 * 1024 * 1024);
  });

  it(`runs on ${node.version}: --version prints the app's version`, async () => {
    // The bin's shebang finds the chosen Node first on PATH.
    const PATH = [path.dirname(node.bin), process.env.PATH ?? ""].join(path.delimiter);
    expect(execFileSync("node", ["--version"], { env: { PATH, NODE_ENV: "test" }, encoding: "utf8" }).trim()).toBe(node.version);
    const res = await installedAssay(["--version"]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(appVersion);
  });

  it("runs a suite to the end and writes its JUnit report", async () => {
    const { workspace, ctx } = await makeWorkspace("owner");
    const passes = [{ type: "contains_phrases", phrases: ["Fake reply"], case_sensitive: false }];
    const { suite } = await makeSuiteWithCases(ctx, 2, { baseUrl: fake.url, caseData: () => ({ checks: passes }) });
    const env = { ASSAY_URL: app.url, ASSAY_API_KEY: await makeApiKey(workspace.id, "editor") };
    const junit = path.join(tmp, "assay-junit.xml");
    const res = await installedAssay(["run", suite.name, "--wait", "--format", "junit", "--output", junit], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/Run #1 completed: 2\/2 passed, 0 failed, 0 errors, 0 skipped/);
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain("<testsuite");
    expect(xml).toContain('name="case 1"');
  }, 30_000);
});
