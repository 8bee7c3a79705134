import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import * as cancelRoute from "@/app/api/v1/runs/[id]/cancel/route";
import * as itemsRoute from "@/app/api/v1/review-items/route";
import { POST as labelRoute } from "@/app/api/v1/review-items/[id]/labels/route";
import { withRunStack } from "../helpers/run-stack";
import { call } from "../helpers/api";
import { makeApiKey, makeWorkspace, makeSuiteWithCases, waitFor, variable, setAgentVariables } from "../helpers/factories";
import { closedPort, runAssay, withCliServer } from "./app-server";

/**
 * The `assay` CLI end to end: `node lib/cli/assay.mjs …` as a child process against the real
 * /api/v1 route handlers on a loopback server, runs executed by a real Executor on the fake
 * OpenAI server. Asserts the exit codes CI relies on (0 passed, 1 below threshold, 2 usage or
 * validation, 3 failed/cancelled/unreachable) and what each command writes.
 */

const { fake } = withRunStack();
const cli = withCliServer("assay-cli-");

const assay = runAssay;

const passes = [{ type: "contains_phrases", phrases: ["Fake reply"], case_sensitive: false }];
const neverSaid = [{ type: "contains_phrases", phrases: ["a phrase the fake never says"], case_sensitive: false }];

/** Four cases: three pass on the fake's default reply and one cannot (pass rate 75 %); agent variables Temperature and Mode. */
async function setup() {
  const { workspace, ctx } = await makeWorkspace("owner");
  const made = await makeSuiteWithCases(ctx, 4, { baseUrl: fake.url, caseData: (i) => ({ checks: i === 3 ? neverSaid : passes }) });
  await setAgentVariables(made.agent.id, [
    variable("Temperature", "number"),
    variable("Mode", "string", {
      value_source: "static",
      possible_values: [{ value: "strict" }, { value: "lenient" }],
      default_value: "strict",
    }),
  ]);
  const other = await db.modelConfig.create({
    data: { workspaceId: workspace.id, name: `gpt-b-${Math.random()}`, baseUrl: fake.url, model: "model-b" },
  });
  const key = await makeApiKey(workspace.id, "editor");
  const env = { ASSAY_URL: cli.url, ASSAY_API_KEY: key };
  return { ...made, workspace, key, env, other };
}

describe("assay run", () => {
  it("--wait writes the JUnit report and exits 0 at or above --min-pass-rate, 1 below it; --var is typed", async () => {
    const { suite, env } = await setup();
    const junit = path.join(cli.dir, "nested", "assay-junit.xml");
    const ok = await assay(
      [
        "run",
        suite.name,
        "--var",
        "Temperature=0.5",
        "-V",
        "Mode=lenient",
        "--wait",
        "--format",
        "junit",
        "--output",
        junit,
        "--min-pass-rate",
        "75",
      ],
      env,
    );
    expect(ok.code, ok.stderr).toBe(0);
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain("<testsuite");
    expect(xml).toContain("case 3");
    expect(ok.stderr).toMatch(/3\/4 passed/);
    const run = await db.run.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { createdAt: "desc" } });
    expect(run.status).toBe("completed");
    // Typed by the agent's definitions: the number arrives as a number, not the string "0.5".
    expect(JSON.stringify(run.resolvedVariables)).toContain('"Temperature":0.5');
    expect(JSON.stringify(run.resolvedVariables)).toContain('"Mode":"lenient"');

    // By id, default threshold 100 %: 75 % is below it. The report goes to stdout.
    const below = await assay(["run", suite.id, "--wait", "--format", "csv"], env);
    expect(below.code, below.stderr).toBe(1);
    expect(below.stderr).toContain("below 100%");
    expect(below.stdout).toContain("case 0");
  }, 40_000);

  it("without --wait prints only the run id on stdout and exits 0; --url overrides ASSAY_URL", async () => {
    const { suite, env } = await setup();
    // No URL at all (an empty ASSAY_URL) is a usage error before anything is sent.
    const noUrl = await assay(["run", suite.name], { ...env, ASSAY_URL: "" });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain("ASSAY_URL");
    const caseId = (await db.testCase.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" } })).id;
    const started = await assay(["run", suite.name, "--url", cli.url, "--case", caseId], { ...env, ASSAY_URL: "http://127.0.0.1:1" });
    expect(started.code, started.stderr).toBe(0);
    const id = started.stdout.trim();
    expect(await db.run.findUnique({ where: { id } })).toMatchObject({ suiteId: suite.id, totalCases: 1 });
  });

  it("exits 2 for an unknown variable, listing the known ones, and for a value of the wrong type", async () => {
    const { suite, env } = await setup();
    const unknown = await assay(["run", suite.name, "--var", "Temprature=0.5"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown variable "Temprature"');
    expect(unknown.stderr).toContain("Known variables: Temperature (number), Mode (string)");
    const wrongType = await assay(["run", suite.name, "--var", "Temperature=warm"], env);
    expect(wrongType.code).toBe(2);
    expect(wrongType.stderr).toContain('Temperature is a number; "warm" is not one');
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(0);
  });

  it("exits 2 with the API's field messages when the server refuses the run", async () => {
    const { suite, env } = await setup();
    const res = await assay(["run", suite.name, "--var", "Mode=chaotic"], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/variables\.Mode: .*chaotic/);
  });

  it("exits 2 for a bad flag, a bad flag value, an unknown suite and a missing key", async () => {
    const { suite, env } = await setup();
    const badFlag = await assay(["run", suite.name, "--bogus"], env);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain("unknown option '--bogus'");
    const badValue = await assay(["run", suite.name, "--min-pass-rate", "120"], env);
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain("--min-pass-rate");
    const noSuite = await assay(["run", "No such suite"], env);
    expect(noSuite.code).toBe(2);
    expect(noSuite.stderr).toContain('No suite named "No such suite"');
    const noKey = await assay(["run", suite.name], { ASSAY_URL: cli.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("ASSAY_API_KEY");
    const revoked = await assay(["run", suite.name, "--api-key", "test_not_a_key"], env);
    expect(revoked.code).toBe(2);
    expect(revoked.stderr).toContain("Invalid, expired or revoked API key");
  });

  it("exits 3 when the server is unreachable", async () => {
    const port = await closedPort();
    const res = await assay(["run", "Any suite", "--wait"], { ASSAY_URL: `http://127.0.0.1:${port}`, ASSAY_API_KEY: "test_key" });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(`Cannot reach Assay at http://127.0.0.1:${port}`);
  });

  it("exits 3 when the run it waits for is cancelled", async () => {
    const { suite, env, key } = await setup();
    fake.setLatency(1_500);
    const pending = assay(["run", suite.name, "--wait", "--concurrency", "1"], env);
    const run = await waitFor(
      () => db.run.findFirst({ where: { suiteId: suite.id } }),
      (r) => r !== null,
    );
    const cancelled = await call(cancelRoute.POST, {
      method: "POST",
      token: key,
      params: { id: run!.id },
      url: `/api/v1/runs/${run!.id}/cancel`,
    });
    expect(cancelled.status).toBe(200);
    const res = await pending;
    expect(res.code, res.stderr).toBe(3);
    expect(res.stderr).toContain("was cancelled");
  }, 30_000);
});

describe("assay run --trials and the gates", () => {
  /** Four cases × 3 trials: case 0 fails its first trial only (flaky), case 3 never passes; pass@1 = (2/3 + 1 + 1 + 0) / 4. */
  async function flakyRun(args: string[]) {
    const { suite, env } = await setup();
    fake.addRule({ match: { lastUserContains: "question 0" }, reply: { content: "not today" }, times: 1 });
    const res = await assay(["run", suite.name, "--trials", "3", "--wait", ...args], env);
    const run = await db.run.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { createdAt: "desc" } });
    return { res, run };
  }

  it("sends --trials, prints the trial figures and exits 1 when --max-flaky is exceeded", async () => {
    const junit = path.join(cli.dir, "trials-junit.xml");
    const { res, run } = await flakyRun(["--min-pass-rate", "60", "--max-flaky", "0", "--output", junit]);
    expect(run).toMatchObject({ trials: 3, totalCases: 12, status: "completed" });
    expect(res.code, res.stderr).toBe(1);
    expect(res.stderr).toContain("started (4 cases × 3 trials = 12 executions)");
    expect(res.stderr).toMatch(/3 trials per case: pass@1 66\.7% \(95% CI [\d.]+–[\d.]+%\), pass@3 75\.0%, pass\^3 50\.0%, 1 flaky case\n/);
    expect(res.stderr).toContain("— 1 flaky case > --max-flaky 0");
    expect(res.stderr).not.toContain("is below 60%");
    // One testcase per case: case 0's failed trial is a Surefire flakyFailure, case 3 a failure with two reruns.
    const xml = await readFile(junit, "utf8");
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml.match(/<flakyFailure /g)).toHaveLength(1);
    expect(xml.match(/<failure /g)).toHaveLength(1);
    expect(xml.match(/<rerunFailure /g)).toHaveLength(2);
  }, 40_000);

  it("--min-pass-rate gates pass@1 itself by default (0), its interval's lower bound with --gate lower (1)", async () => {
    const point = await flakyRun(["--min-pass-rate", "66", "--max-flaky", "1"]);
    expect(point.res.code, point.res.stderr).toBe(0);
    expect(point.res.stderr).toMatch(/pass@1 66\.7% \(95% CI [\d.]+–[\d.]+%\) ≥ 66%; 1 flaky case ≤ --max-flaky 1/);
    const lower = await flakyRun(["--min-pass-rate", "66", "--gate", "lower"]);
    expect(lower.res.code, lower.res.stderr).toBe(1);
    const [low] = (lower.run.summary as { pass_at_1_ci95: [number, number] }).pass_at_1_ci95;
    expect(low).toBeLessThan(0.66);
    expect(lower.res.stderr).toContain(`the lower bound ${(low * 100).toFixed(1)}% of pass@1 66.7%`);
    expect(lower.res.stderr).toContain("is below 66%");
  }, 40_000);

  it("exits 2 for --trials outside 1–20, a --gate that is neither point nor lower and a negative --max-flaky", async () => {
    const { suite, env } = await setup();
    for (const [args, message] of [
      [["--trials", "0"], "--trials must be a whole number from 1 to 20"],
      [["--trials", "21"], "--trials must be a whole number from 1 to 20"],
      [["--trials", "2.5"], "--trials must be a whole number from 1 to 20"],
      [["--gate", "upper"], "option '--gate <which>' argument 'upper' is invalid"],
      [["--max-flaky", "-1"], "--max-flaky must be a whole number"],
    ] as [string[], string][]) {
      const res = await assay(["run", suite.name, "--wait", ...args], env);
      expect(res.code, `${args.join(" ")}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(message);
    }
    expect(await db.run.count({ where: { suiteId: suite.id } })).toBe(0);
  });

  it("says in --help what --trials, --gate and --max-flaky do", async () => {
    const res = await assay(["run", "--help"]);
    expect(res.code).toBe(0);
    for (const text of ["--trials <n>", "--gate <which>", '"point", "lower"', "--max-flaky <n>", "lowest pass@1"])
      expect(res.stdout).toContain(text);
  });
});

describe("assay run --preset", () => {
  it("starts from the preset's values, --var on top; an unknown preset lists the known ones", async () => {
    const { suite, env, workspace } = await setup();
    await db.suitePreset.create({
      data: { workspaceId: workspace.id, suiteId: suite.id, name: "Cold", values: { Temperature: 0, Mode: "lenient" } },
    });
    const started = await assay(["run", suite.name, "--preset", "cold", "--var", "Temperature=0.3"], env);
    expect(started.code, started.stderr).toBe(0);
    const run = await db.run.findUniqueOrThrow({ where: { id: started.stdout.trim() } });
    expect(JSON.stringify(run.resolvedVariables)).toContain('"Temperature":0.3');
    expect(JSON.stringify(run.resolvedVariables)).toContain('"Mode":"lenient"');
    const unknown = await assay(["run", suite.name, "--preset", "Warm"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No preset "Warm". Known: Cold');
  });
});

describe("assay list and cases", () => {
  it("lists cases, and with --show-variables the variables each case exposes", async () => {
    const { suite, env } = await setup();
    const list = await assay(["list", suite.name], env);
    expect(list.code, list.stderr).toBe(0);
    for (const i of [0, 1, 2, 3]) expect(list.stdout).toContain(`case ${i}`);
    const vars = await assay(["list", suite.id, "--show-variables", "--json"], env);
    expect(vars.code, vars.stderr).toBe(0);
    const rows = JSON.parse(vars.stdout) as {
      name: string;
      variable: string;
      type: string;
      value: string;
      source: string;
      allowed: string;
    }[];
    expect(rows).toHaveLength(8);
    expect(rows).toContainEqual(
      expect.objectContaining({
        name: "case 0",
        variable: "Mode",
        type: "string",
        value: '"strict"',
        source: "type",
        allowed: '"strict", "lenient"',
      }),
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ name: "case 0", variable: "Temperature", type: "number", allowed: "any number" }),
    );
  });

  it("exports as YAML or JSON and imports a file back", async () => {
    const { suite, env } = await setup();
    const json = await assay(["cases", "export", suite.name, "--format", "json"], env);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(4);
    const yamlFile = path.join(cli.dir, `cases-${suite.id}.yaml`);
    const yaml = await assay(["cases", "export", suite.name, "--output", yamlFile], env);
    expect(yaml.code, yaml.stderr).toBe(0);
    expect(await readFile(yamlFile, "utf8")).toContain("name: case 0");
    const imported = await assay(["cases", "import", suite.name, yamlFile], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain("Imported 4 test cases");
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(8);

    const bad = path.join(cli.dir, `bad-${suite.id}.json`);
    await writeFile(bad, JSON.stringify([{ name: "" }]));
    const refused = await assay(["cases", "import", suite.name, bad], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/ {2}0\.name: /);
  });
});

describe("assay compare", () => {
  it("resolves model names and typed var.NAME per arm, waits and writes the JSON report", async () => {
    const { suite, env, other } = await setup();
    const out = path.join(cli.dir, `comparison-${suite.id}.json`);
    const res = await assay(
      [
        "compare",
        suite.name,
        "--baseline",
        "label=A",
        "var.Mode=strict",
        "--variant",
        `model=${other.name}`,
        "temperature=1",
        "label=B",
        "--wait",
        "--output",
        out,
      ],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(await readFile(out, "utf8"));
    expect(JSON.stringify(report)).toContain("model-b");
    const comparison = await db.comparison.findFirstOrThrow({ where: { suiteId: suite.id } });
    expect(comparison.status).toBe("completed");
    expect(fake.requests.some((r) => r.endpoint === "chat" && (r.body as { model?: string }).model === "model-b")).toBe(true);
  }, 30_000);

  it("exits 2 for an unknown arm key or model name", async () => {
    const { suite, env } = await setup();
    const key = await assay(["compare", suite.name, "--baseline", "modle=x", "--variant", "temperature=1"], env);
    expect(key.code).toBe(2);
    expect(key.stderr).toContain('unknown key "modle"');
    const model = await assay(["compare", suite.name, "--baseline", "label=A", "--variant", "model=no-such-model"], env);
    expect(model.code).toBe(2);
    expect(model.stderr).toContain('No model configuration "no-such-model"');
  });
});

describe("assay matrix", () => {
  it("refuses an axis that is not a variable of the agent (exit 2) before sending anything", async () => {
    const { suite, env } = await setup();
    const res = await assay(["matrix", suite.name, "--axis", "Temp=0,1"], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("Known variables: Temperature (number), Mode (string)");
  });

  it("runs one combination per value pair and prints the table", async () => {
    const { suite, env } = await setup();
    const res = await assay(["matrix", suite.name, "--axis", "Temperature=0,0.7", "--axis", "Mode=strict,lenient", "--wait"], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("Temperature=0.7");
    expect(res.stdout.trim().split("\n")).toHaveLength(5);
  }, 40_000);
});

describe("run metadata (--meta, CI detection)", () => {
  const SHA = "0123456789abcdef0123456789abcdef01234567";
  const githubEnv = {
    GITHUB_ACTIONS: "true",
    GITHUB_SHA: SHA,
    GITHUB_REF_NAME: "main",
    GITHUB_HEAD_REF: "",
    GITHUB_SERVER_URL: "https://github.com",
    GITHUB_REPOSITORY: "acme/agents",
    GITHUB_RUN_ID: "987654",
  };
  const buildUrl = "https://github.com/acme/agents/actions/runs/987654";

  /** GET /api/v1/… with the key, as any API client would read what the CLI created. */
  async function apiGet(key: string, pathname: string) {
    const res = await fetch(`${cli.url}/api/v1${pathname}`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status, pathname).toBe(200);
    return res.json();
  }

  it("sends --meta over the detected values; the run, its number and its metadata come back through the API", async () => {
    const { suite, env, key } = await setup();
    const caseId = (await db.testCase.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" } })).id;
    const res = await assay(["run", suite.name, "--case", caseId, "--meta", "branch=release/1.2", "--meta", "ticket=QA 7", "--json"], {
      ...env,
      ...githubEnv,
    });
    expect(res.code, res.stderr).toBe(0);
    const printed = JSON.parse(res.stdout) as { id: string; number: number; metadata: Record<string, string> };
    const expected = { commit: SHA, branch: "release/1.2", build_url: buildUrl, ticket: "QA 7" };
    expect(printed.number).toBe(1);
    expect(printed.metadata).toEqual(expected);
    expect(res.stderr).toContain(`Run #1 of "${suite.name}" started (1 cases)`);
    expect(res.stderr).toContain(
      `Metadata: commit=${SHA} branch=release/1.2 build_url=${buildUrl} ticket="QA 7" (detected: GitHub Actions)`,
    );
    const run = await apiGet(key, `/runs/${printed.id}`);
    expect(run).toMatchObject({ number: 1, metadata: expected });
  });

  it("--no-ci-meta sends only the explicit pairs (none: no metadata line); --wait names the run by number", async () => {
    const { suite, env, key } = await setup();
    const caseId = (await db.testCase.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" } })).id;
    const explicit = await assay(["run", suite.name, "--case", caseId, "--no-ci-meta", "--meta", "ticket=QA-7"], { ...env, ...githubEnv });
    expect(explicit.code, explicit.stderr).toBe(0);
    expect((await apiGet(key, `/runs/${explicit.stdout.trim()}`)).metadata).toEqual({ ticket: "QA-7" });
    expect(explicit.stderr).toContain("Metadata: ticket=QA-7\n");

    const waited = await assay(["run", suite.name, "--case", caseId, "--no-ci-meta", "--wait", "--json"], { ...env, ...githubEnv });
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stderr).toContain(`Run #2 of "${suite.name}" started (1 cases)`);
    expect(waited.stderr).toMatch(/Run #2 completed: 1\/1 passed/);
    expect(waited.stderr).not.toContain("Metadata:");
    const finished = JSON.parse(waited.stdout) as { id: string; status: string; metadata: Record<string, string> };
    expect(finished).toMatchObject({ status: "completed", metadata: {} });
    expect((await apiGet(key, `/runs/${finished.id}`)).metadata).toEqual({});
  }, 30_000);

  it("compare and matrix store the metadata on every run they start", async () => {
    const { suite, env, key } = await setup();
    const caseId = (await db.testCase.findFirstOrThrow({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" } })).id;
    const gitlab = {
      GITLAB_CI: "true",
      CI_COMMIT_SHA: SHA,
      CI_COMMIT_REF_NAME: "feature/x",
      CI_JOB_URL: "https://gitlab.example.com/-/jobs/4",
    };
    const expected = { commit: SHA, branch: "feature/x", build_url: "https://gitlab.example.com/-/jobs/4", ticket: "QA-9" };

    const compared = await assay(
      ["compare", suite.name, "--case", caseId, "--baseline", "label=A", "--variant", "temperature=1", "--meta", "ticket=QA-9"],
      { ...env, ...gitlab },
    );
    expect(compared.code, compared.stderr).toBe(0);
    expect(compared.stderr).toContain("(detected: GitLab CI)");
    const comparison = await apiGet(key, `/comparisons/${compared.stdout.trim()}`);
    const armRuns = (comparison.arms as { run_id: string }[]).map((a) => a.run_id);
    expect(armRuns).toHaveLength(2);
    for (const id of armRuns) expect((await apiGet(key, `/runs/${id}`)).metadata).toEqual(expected);

    const matrixed = await assay(["matrix", suite.name, "--case", caseId, "--axis", "Mode=strict,lenient", "--meta", "ticket=QA-9"], {
      ...env,
      ...gitlab,
    });
    expect(matrixed.code, matrixed.stderr).toBe(0);
    const matrix = await apiGet(key, `/matrices/${matrixed.stdout.trim()}`);
    const comboRuns = (matrix.combinations as { run_id: string }[]).map((c) => c.run_id);
    expect(comboRuns).toHaveLength(2);
    for (const id of comboRuns) expect((await apiGet(key, `/runs/${id}`)).metadata).toEqual(expected);
  }, 30_000);

  it("refuses a malformed --meta (exit 2, naming it) before sending any request", async () => {
    // Nothing listens on this port: a request would end in exit 3 "Cannot reach Assay".
    const env = { ASSAY_URL: `http://127.0.0.1:${await closedPort()}`, ASSAY_API_KEY: "test_key" };
    const many = Array.from({ length: 21 }, (_, i) => ["--meta", `k${i}=v`]).flat();
    const cases: [string[], string][] = [
      [["run", "S", "--meta", "commit"], '--meta expects NAME=VALUE, got "commit"'],
      [["run", "S", "--meta", "build url=x"], '--meta: "build url" is not a metadata key'],
      [["run", "S", ...many], "--meta k20: at most 20 metadata keys, got 21"],
      [["compare", "S", "--baseline", "label=A", "--variant", "label=B", "--meta", "a b=1"], '--meta: "a b" is not a metadata key'],
      [["matrix", "S", "--axis", "Mode=strict", "--meta", "nothing"], '--meta expects NAME=VALUE, got "nothing"'],
      [["run", "S", "--wait", "--json", "--format", "junit"], "--json and the --format report would both go to stdout"],
    ];
    for (const [args, message] of cases) {
      const res = await assay(args, { ...env, ...githubEnv });
      expect(res.code, `${args.join(" ")}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toContain(message);
    }
  });

  it("says in --help what is detected in which CI", async () => {
    for (const command of ["run", "compare", "matrix"]) {
      const res = await assay([command, "--help"]);
      expect(res.code).toBe(0);
      for (const text of [
        "--meta <KEY=VALUE>",
        "--no-ci-meta",
        "GitHub Actions (GITHUB_ACTIONS)",
        "GITHUB_HEAD_REF",
        "CI_JOB_URL",
        "BUILD_BUILDID",
      ])
        expect(res.stdout).toContain(text);
    }
  });
});

describe("assay run --require-trusted-judge", () => {
  it("exits 1 while the suite's judge is uncalibrated, 0 once its labels make it trusted, and prints its calibration", async () => {
    const { suite, env, key } = await setup();
    // Four labels are enough here, and any kappa interval will do (four perfect labels still leave it wide);
    // the run has three passes and one failure (case 3).
    await db.suite.update({ where: { id: suite.id }, data: { calibrationMinLabels: 4, calibrationTrustedKappa: -1 } });
    const refused = await assay(["run", suite.name, "--wait", "--min-pass-rate", "75", "--require-trusted-judge"], env);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain("Judge: uncalibrated (0 of 4 labelled judgements)");
    expect(refused.stderr).toContain("≥ 75%; the suite's judge is uncalibrated, not trusted (--require-trusted-judge)");

    // A reviewer confirms each of the run's four verdicts: perfect agreement on both classes.
    const run = await db.run.findFirstOrThrow({ where: { suiteId: suite.id }, select: { id: true } });
    const results = await db.caseResult.findMany({ where: { runId: run.id }, select: { id: true, status: true } });
    const items = await call(itemsRoute.POST, { method: "POST", token: key, body: { case_result_ids: results.map((r) => r.id) } });
    expect(items.status).toBe(201);
    for (const item of items.json.data as { id: string; case_result_id: string }[]) {
      const status = results.find((r) => r.id === item.case_result_id)!.status;
      const label = await call(labelRoute, {
        method: "POST",
        token: key,
        body: { verdict: status === "passed" ? "pass" : "fail" },
        params: { id: item.id },
      });
      expect(label.json.status).toBe("agreed");
    }
    const trusted = await assay(["run", suite.name, "--wait", "--min-pass-rate", "75", "--require-trusted-judge"], env);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stderr).toMatch(/Judge: trusted \(κ 1\.00, 95% CI -?\d\.\d\d–1\.00, 4 labelled\)/);
    expect(trusted.stderr).toContain("; the judge is trusted");
  }, 40_000);
});
