import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { zipSync } from "fflate";
import YAML from "yaml";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { importContentType, importReportLines, importSummary } from "@/lib/cli/cases.mjs";
import { testCaseInput } from "@/lib/test-cases/schemas";
import { withRunStack } from "../helpers/run-stack";
import { makeApiKey, makeSuiteWithCases, makeWorkspace, runToEnd } from "../helpers/factories";
import { closedPort, runAssay, withCliServer } from "./app-server";

/**
 * `assay cases import|export --format` and `assay runs export` end to end: the CLI as a child
 * process against the real /api/v1 routes on a loopback server (runs executed on the fake OpenAI
 * server). Another tool's file goes up as it is (a zip stays a zip), the server converts it, and
 * the CLI prints per item what was mapped and what was not carried over, then a summary; a dry run
 * writes nothing and exits as the import would. The pure parts (Content-Type, the report's lines)
 * are checked line by line first.
 */

const { fake } = withRunStack();
const cli = withCliServer("assay-cli-formats-");

const assay = runAssay;

/** A workspace with a suite of `count` cases on the fake server and an editor key for the CLI. */
async function setup(count = 2) {
  const { workspace, ctx } = await makeWorkspace("owner");
  const made = await makeSuiteWithCases(ctx, count, { baseUrl: fake.url });
  const env = { ASSAY_URL: cli.url, ASSAY_API_KEY: await makeApiKey(workspace.id, "editor") };
  return { ...made, ctx, env };
}

const write = async (name: string, content: string | Uint8Array) => {
  const file = path.join(cli.dir, `${Math.random().toString(36).slice(2)}-${name}`);
  await writeFile(file, content);
  return file;
};

const enc = (text: string) => new TextEncoder().encode(text);

/** The suite's cases in file order, as their documents' fields. */
const casesOf = (suiteId: string) =>
  db.testCase.findMany({ where: { suiteId }, orderBy: { sortOrder: "asc" }, select: { name: true, initialMessage: true, checks: true } });

/** A promptfoo config whose second test list sits in a file beside it (so only the zip carries it whole). */
const PROMPTFOO = `description: Support
prompts:
  - "Answer the customer: {{question}}"
tests:
  - description: Refund window
    vars:
      question: How long do refunds take?
    assert:
      - type: icontains
        value: days
      - type: javascript
        value: output.length < 200
  - file://more-tests.yaml
`;
const MORE_TESTS = "- description: Opening hours\n  vars:\n    question: When are you open?\n";

/** OpenAI chat JSONL: one conversation, then a line that is not JSON. */
const JSONL = `${JSON.stringify({
  messages: [
    { role: "user", content: "Where is order 7?" },
    { role: "assistant", content: "It has shipped." },
  ],
})}\n{ broken\n`;

describe("importContentType", () => {
  it("sends a zip by name or by its first bytes, YAML, JSON Lines and JSON by name, anything else by its content", () => {
    const zip = zipSync({ "promptfooconfig.yaml": enc(PROMPTFOO) });
    expect(importContentType("bundle.zip", enc("not really"))).toBe("application/zip");
    expect(importContentType("bundle.bin", zip)).toBe("application/zip");
    expect(importContentType("config.YAML", enc("{}"))).toBe("application/yaml");
    expect(importContentType("cases.yml", enc("- name: a"))).toBe("application/yaml");
    expect(importContentType("chats.jsonl", enc("{}"))).toBe("application/x-ndjson");
    expect(importContentType("chats.ndjson", enc("{}"))).toBe("application/x-ndjson");
    expect(importContentType("goldens.json", enc("- not json"))).toBe("application/json");
    expect(importContentType("cases.txt", enc("\uFEFF  [{}]"))).toBe("application/json");
    expect(importContentType("cases", enc("- name: a"))).toBe("application/yaml");
  });
});

describe("the import report's lines", () => {
  const report = {
    format: "promptfoo",
    dry_run: true,
    imported: 0,
    would_import: 1,
    skipped: 2,
    errors: [
      { index: 1, path: "", message: "Line 2 is not valid JSON" },
      { index: 2, path: "max_turns", message: "Too big" },
      { index: 2, path: "name", message: "Required" },
    ],
    items: [
      {
        index: 0,
        label: "Refund window",
        mapped: ["description → name", "assert[0] icontains → checks contains_phrases (case-insensitive)"],
        dropped: [
          { field: "assert[1]", reason: "javascript assertions run code; Assay has no code checks" },
          { field: "assert[2]", reason: "cost is not a check" },
        ],
        error: null,
      },
      { index: 1, label: "line 2", mapped: [], dropped: [], error: "Line 2 is not valid JSON" },
      { index: 2, label: "test 3", mapped: ["vars.question → initial_message"], dropped: [], error: null },
    ],
    notes: ["1 provider: openai:gpt-4o-mini"],
  };

  it("gives each item ✓ or ✗, its errors once, its mapped fields on one line and each dropped field with its reason", () => {
    expect(importReportLines(report)).toEqual([
      "✓ Refund window",
      "    mapped: description → name · assert[0] icontains → checks contains_phrases (case-insensitive)",
      "    dropped: assert[1] — javascript assertions run code; Assay has no code checks",
      "    dropped: assert[2] — cost is not a check",
      "✗ line 2",
      "    error: Line 2 is not valid JSON",
      "✗ test 3",
      "    error: max_turns: Too big",
      "    error: name: Required",
      "    mapped: vars.question → initial_message",
    ]);
  });

  it("lists an Assay document's invalid cases by index and path (it has no items)", () => {
    const own = { imported: 3, skipped: 1, errors: [{ index: 4, path: "checks.0.phrases", message: "Add a phrase" }] };
    expect(importReportLines(own)).toEqual(["✗ case 4.checks.0.phrases: Add a phrase"]);
    expect(importSummary(own, "Billing")).toBe('Imported 3 test cases into "Billing"; 1 case cannot be imported');
  });

  it("sums up a dry run and an import with what was left out", () => {
    expect(importSummary(report, "Billing")).toBe(
      'Dry run: 1 test case would be imported into "Billing"; 2 items cannot be imported; 2 fields not carried over; nothing was written',
    );
    expect(importSummary({ ...report, dry_run: false, imported: 1, skipped: 0 }, "Billing")).toBe(
      'Imported 1 test case into "Billing"; 2 fields not carried over',
    );
  });
});

describe("assay cases import --format", () => {
  it("a promptfoo zip: --dry-run prints each item's mapping and writes nothing; the import creates the cases", async () => {
    const { suite, env } = await setup(0);
    const zip = await write("promptfoo.zip", zipSync({ "promptfooconfig.yaml": enc(PROMPTFOO), "more-tests.yaml": enc(MORE_TESTS) }));

    const dry = await assay(["cases", "import", suite.name, zip, "--format", "promptfoo", "--dry-run"], env);
    expect(dry.code, dry.stderr).toBe(0);
    const lines = dry.stdout.split("\n");
    expect(lines[0]).toBe("✓ Refund window");
    expect(lines[1]).toMatch(/^ {4}mapped: .*→ initial_message/);
    expect(dry.stdout).toContain("    dropped: assert[1] — javascript assertions run code; Assay has no code checks\n");
    expect(dry.stdout).toContain("✓ Opening hours\n");
    expect(dry.stderr).toContain(
      `Dry run: 2 test cases would be imported into "${suite.name}"; 1 field not carried over; nothing was written`,
    );
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(0);

    const imported = await assay(["cases", "import", suite.id, zip, "--format", "promptfoo"], env);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`Imported 2 test cases into "${suite.name}"; 1 field not carried over`);
    expect(await casesOf(suite.id)).toEqual([
      {
        name: "Refund window",
        initialMessage: "Answer the customer: How long do refunds take?",
        checks: [{ type: "contains_phrases", phrases: ["days"], case_sensitive: false }],
      },
      { name: "Opening hours", initialMessage: "Answer the customer: When are you open?", checks: [] },
    ]);
  });

  it("OpenAI JSONL with an unreadable line: the dry run exits 2 as the import would be refused, --valid-only imports the rest", async () => {
    const { suite, env } = await setup(0);
    const jsonl = await write("chats.jsonl", JSONL);

    const dry = await assay(["cases", "import", suite.name, jsonl, "--format", "openai-jsonl", "--dry-run"], env);
    expect(dry.code, dry.stderr).toBe(2);
    expect(dry.stdout).toMatch(/^✓ line 1: Where is order 7\?\n/);
    expect(dry.stdout).toMatch(/\n✗ line 2\n {4}error: Line 2 is not valid JSON/);
    expect(dry.stderr).toContain("1 item cannot be imported");
    expect(dry.stderr).toContain("The import would be refused");

    // Without --valid-only the server refuses; the CLI says how to go on.
    const refused = await assay(["cases", "import", suite.name, jsonl, "--format", "openai-jsonl"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("nothing was imported (--dry-run shows what each item becomes; --valid-only imports the valid ones)");
    expect(refused.stderr).toMatch(/\n {2}1: Line 2 is not valid JSON/);
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(0);

    const valid = await assay(["cases", "import", suite.name, jsonl, "--format", "openai-jsonl", "--valid-only", "--json"], env);
    expect(valid.code, valid.stderr).toBe(0);
    const report = JSON.parse(valid.stdout) as { format: string; imported: number; skipped: number; items: { label: string }[] };
    expect(report).toMatchObject({ format: "openai-jsonl", dry_run: false, imported: 1, skipped: 1 });
    expect(report.items.map((i) => i.label)).toEqual(["line 1: Where is order 7?", "line 2"]);
    expect(valid.stderr).toContain(`Imported 1 test case into "${suite.name}"; 1 item cannot be imported`);
    const [created] = await db.testCase.findMany({ where: { suiteId: suite.id } });
    expect(created).toMatchObject({ initialMessage: "Where is order 7?", groundTruth: "It has shipped." });
  });

  it("--dry-run --json answers the cases as they would be created, each one Assay accepts", async () => {
    const { suite, env } = await setup(0);
    const config = await write("promptfooconfig.yaml", PROMPTFOO.replace("  - file://more-tests.yaml\n", ""));
    const res = await assay(["cases", "import", suite.name, config, "--format", "promptfoo", "--dry-run", "--json"], env);
    expect(res.code, res.stderr).toBe(0);
    const report = JSON.parse(res.stdout) as { dry_run: boolean; would_import: number; test_cases: unknown[] };
    expect(report).toMatchObject({ dry_run: true, would_import: 1 });
    expect(report.test_cases).toHaveLength(1);
    for (const c of report.test_cases) expect(testCaseInput.safeParse(c).success).toBe(true);
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(0);
  });

  it("refuses an unknown format (exit 2) listing the formats, before sending anything", async () => {
    // Nothing listens on this port: a request would end in exit 3 "Cannot reach Assay".
    const env = { ASSAY_URL: `http://127.0.0.1:${await closedPort()}`, ASSAY_API_KEY: "test_key" };
    const res = await assay(["cases", "import", "S", "cases.yaml", "--format", "promptfo"], env);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("Allowed choices are assay, promptfoo, langfuse, deepeval, openai-jsonl, inspect.");
    const exp = await assay(["cases", "export", "S", "--format", "csv"], env);
    expect(exp.code).toBe(2);
    expect(exp.stderr).toContain("Allowed choices are yaml, json, zip, promptfoo, deepeval, langfuse.");
    const run = await assay(["runs", "export", "not-a-run", "--format", "openai-jsonl"], env);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('<run-id> is a run\'s id (a UUID, as `assay run` prints it), got "not-a-run"');
    const noFormat = await assay(["runs", "export", "00000000-0000-4000-8000-000000000000"], env);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain("required option '--format <format>' not specified");
  });
});

describe("assay cases export --format", () => {
  it("writes promptfoo, Langfuse and zip files that import back to the suite's cases", async () => {
    const { suite, env } = await setup(2);
    const config = path.join(cli.dir, `${suite.id}-promptfooconfig.yaml`);
    const promptfoo = await assay(["cases", "export", suite.name, "--format", "promptfoo", "--output", config], env);
    expect(promptfoo.code, promptfoo.stderr).toBe(0);
    const doc = YAML.parse(await readFile(config, "utf8")) as { tests: { description: string }[] };
    expect(doc.tests.map((t) => t.description)).toEqual(["case 0", "case 1"]);
    const back = await assay(["cases", "import", suite.name, config, "--format", "promptfoo", "--dry-run"], env);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/^✓ case 0\n(.*\n)*✓ case 1\n/);

    const langfuse = await assay(["cases", "export", suite.id, "--format", "langfuse"], env);
    expect(langfuse.code, langfuse.stderr).toBe(0);
    const items = JSON.parse(langfuse.stdout) as { input: unknown }[];
    expect(items).toHaveLength(2);
    expect(JSON.stringify(items[0]!.input)).toContain("question 0");

    const zipFile = path.join(cli.dir, `${suite.id}.zip`);
    const zip = await assay(["cases", "export", suite.name, "--format", "zip", "-o", zipFile], env);
    expect(zip.code, zip.stderr).toBe(0);
    expect([...(await readFile(zipFile)).subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const again = await assay(["cases", "import", suite.name, zipFile, "--dry-run"], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`Dry run: 2 test cases would be imported into "${suite.name}"; nothing was written`);
  });
});

describe("assay runs export", () => {
  it("writes a finished run's transcripts as OpenAI chat JSONL, one line per case", async () => {
    const { suite, env, ctx } = await setup(2);
    const run = await runToEnd(ctx, suite.id);
    expect(run.status).toBe("completed");
    const out = path.join(cli.dir, `run-${run.id}.jsonl`);
    const res = await assay(["runs", "export", run.id, "--format", "openai-jsonl", "--output", out], env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`Wrote ${out}`);
    const lines = (await readFile(out, "utf8"))
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l) as { messages: { role: string; content: string }[] });
    expect(lines.map((l) => l.messages.find((m) => m.role === "user")?.content).sort()).toEqual(["question 0", "question 1"]);
    for (const l of lines) expect(l.messages.at(-1)).toMatchObject({ role: "assistant", content: expect.stringContaining("Fake reply") });

    const unknown = await assay(["runs", "export", "00000000-0000-4000-8000-000000000000", "--format", "openai-jsonl"], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/error: .*not found/i);
  });
});
