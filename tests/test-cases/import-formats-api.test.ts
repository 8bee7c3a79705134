import { describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { strToU8, zipSync } from "fflate";
import { db } from "@/lib/db";
import { POST as importRoute } from "@/app/api/v1/suites/[id]/test-cases/import/route";
import { GET as exportRoute } from "@/app/api/v1/suites/[id]/test-cases/export/route";
import { GET as getCase } from "@/app/api/v1/test-cases/[id]/route";
import { call } from "../helpers/api";
import { makeApiKey, makeSuite, makeWorkspace } from "../helpers/factories";

/**
 * POST /api/v1/suites/{id}/test-cases/import?format=… and GET …/export?format=… through the real
 * route handlers: the dry run writes nothing and shows the cases and the per-item report, the
 * import is all or nothing (or valid_only), each case records where it came from, a promptfoo
 * bundle's file:// tests are read from the zip, and each export imports back to the same cases.
 */

async function post(token: string, suiteId: string, query: string, body: BodyInit, contentType: string) {
  const req = new NextRequest(`http://localhost/api/v1/suites/${suiteId}/test-cases/import?${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    body,
  });
  const res = await importRoute(req, { params: Promise.resolve({ id: suiteId }) });
  return { status: res.status, json: await res.json() };
}

const PROMPTFOO = `prompts: ["Customer asks: {{question}}"]
providers: [openai:gpt-4o-mini, openai:gpt-4o]
tests:
  - description: Refund
    vars: {question: Where is my refund?}
    assert:
      - {type: icontains, value: refund}
      - {type: javascript, value: "output.length > 0"}
  - description: Greeting
    vars: {question: Hello}
`;

async function setUp() {
  const { workspace } = await makeWorkspace("owner");
  const token = await makeApiKey(workspace.id, "editor");
  const suite = await makeSuite(workspace.id);
  return { workspaceId: workspace.id, token, suite };
}

describe("importing another tool's file through the API", () => {
  it("previews with dry_run (nothing written), then imports with the report and each case's source", async () => {
    const { token, suite } = await setUp();
    const preview = await post(token, suite.id, "format=promptfoo&dry_run=true", PROMPTFOO, "application/yaml");
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({ format: "promptfoo", dry_run: true, imported: 0, would_import: 2, skipped: 0, errors: [] });
    expect(preview.json.test_cases.map((c: { initial_message: string }) => c.initial_message)).toEqual([
      "Customer asks: Where is my refund?",
      "Customer asks: Hello",
    ]);
    expect(preview.json.items[0]).toMatchObject({
      index: 0,
      label: "Refund",
      error: null,
      dropped: [{ field: "assert[1]", reason: "javascript assertions run code; Assay has no code checks" }],
    });
    expect(preview.json.notes).toEqual([expect.stringMatching(/^Providers: openai:gpt-4o-mini, openai:gpt-4o/)]);
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(0);

    const done = await post(token, suite.id, "format=promptfoo", PROMPTFOO, "application/yaml");
    expect(done.status).toBe(201);
    expect(done.json).toMatchObject({ dry_run: false, imported: 2, would_import: 2, items: [{ label: "Refund" }, { label: "Greeting" }] });
    expect(done.json.test_cases).toBeUndefined();
    const rows = await db.testCase.findMany({ where: { suiteId: suite.id }, orderBy: { sortOrder: "asc" } });
    expect(rows.map((r) => [r.name, r.source])).toEqual([
      ["Refund", { type: "import", format: "promptfoo", item_id: null, trace_id: null }],
      ["Greeting", { type: "import", format: "promptfoo", item_id: null, trace_id: null }],
    ]);
    expect(rows[0]!.checks).toEqual([{ type: "contains_phrases", phrases: ["refund"], case_sensitive: false }]);
  });

  it("keeps a Langfuse item's id and trace on the case the API returns", async () => {
    const { token, suite, workspaceId } = await setUp();
    const items = JSON.stringify({ data: [{ id: "lf-9", input: "Opening hours?", expectedOutput: "9-5", sourceTraceId: "tr-9" }] });
    const res = await post(token, suite.id, "format=langfuse", items, "application/json");
    expect(res.status).toBe(201);
    const row = await db.testCase.findFirstOrThrow({ where: { suiteId: suite.id } });
    const read = await call(getCase, {
      url: `/api/v1/test-cases/${row.id}`,
      token: await makeApiKey(workspaceId, "viewer"),
      params: { id: row.id },
    });
    expect(read.json.source).toEqual({ type: "import", format: "langfuse", item_id: "lf-9", trace_id: "tr-9" });
    expect(read.json).toMatchObject({ initial_message: "Opening hours?", ground_truth: "9-5" });
  });

  it("refuses the whole file when an item cannot become a case, unless valid_only", async () => {
    const { token, suite } = await setUp();
    const jsonl = ['{"messages":[{"role":"user","content":"One"}]}', "not json", '{"messages":[{"role":"user","content":"Three"}]}'].join(
      "\n",
    );
    const refused = await post(token, suite.id, "format=openai-jsonl", jsonl, "application/x-ndjson");
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toBe("1 of 3 test cases are invalid; nothing was imported");
    expect(refused.json.error.issues).toEqual([{ path: "1", message: expect.stringMatching(/^Line 2 is not valid JSON/) }]);
    expect(await db.testCase.count({ where: { suiteId: suite.id } })).toBe(0);
    const partial = await post(token, suite.id, "format=openai-jsonl&valid_only=true", jsonl, "application/x-ndjson");
    expect(partial.status).toBe(201);
    expect(partial.json).toMatchObject({ imported: 2, skipped: 1, errors: [{ index: 1, path: "" }] });
    // A converted case Assay cannot accept is reported on its field.
    const long = JSON.stringify([{ input: "x".repeat(200_001), target: "y" }]);
    const invalid = await post(token, suite.id, "format=inspect&dry_run=true", long, "application/json");
    expect(invalid.status).toBe(200);
    expect(invalid.json.errors).toEqual([{ index: 0, path: "initial_message", message: expect.stringMatching(/^Use at most/) }]);
  });

  it("reads a promptfoo bundle's file:// tests from the zip", async () => {
    const { token, suite } = await setUp();
    const zip = zipSync({
      "my-evals/promptfooconfig.yaml": strToU8("prompts: [file://prompt.txt]\ntests: file://tests/*.yaml\n"),
      "my-evals/prompt.txt": strToU8("Q: {{question}}"),
      "my-evals/tests/one.yaml": strToU8("- vars: {question: first}\n"),
      "my-evals/tests/two.yaml": strToU8("- vars: {question: second}\n  assert: [{type: similar, value: hi, threshold: 0.9}]\n"),
      "my-evals/logo.png": new Uint8Array([1, 2, 3]),
    });
    const res = await post(token, suite.id, "format=promptfoo&dry_run=true", new Uint8Array(zip), "application/zip");
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.test_cases.map((c: { initial_message: string }) => c.initial_message)).toEqual(["Q: first", "Q: second"]);
    expect(res.json.test_cases[1].checks).toEqual([{ type: "semantic_similarity", expected_answer: "hi", threshold: 0.9 }]);
    const noConfig = zipSync({ "a.yaml": strToU8("tests: []"), "b.yaml": strToU8("tests: []") });
    const refused = await post(token, suite.id, "format=promptfoo", new Uint8Array(noConfig), "application/zip");
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toMatch(/several documents .* name the config promptfooconfig\.yaml/);
  });

  it("answers 400 on an unknown format or a file of the wrong shape, 403 to a viewer, 413 over 10 MB", async () => {
    const { token, suite, workspaceId } = await setUp();
    const unknown = await post(token, suite.id, "format=csv", "a,b", "text/csv");
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.issues[0].path).toBe("format");
    const wrong = await post(token, suite.id, "format=deepeval", "42", "application/json");
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toMatch(/Expected DeepEval goldens/);
    const viewer = await makeApiKey(workspaceId, "viewer");
    expect((await post(viewer, suite.id, "format=promptfoo", PROMPTFOO, "application/yaml")).status).toBe(403);
    const big = await post(token, suite.id, "format=inspect", "x".repeat(10 * 1024 * 1024 + 1), "application/json");
    expect(big.status).toBe(413);
  });
});

describe("exporting for another tool and importing back", () => {
  it("promptfoo, deepeval and langfuse exports import back to the same cases", async () => {
    const { token, suite, workspaceId } = await setUp();
    const original = [
      {
        name: "Refund",
        tags: ["billing"],
        initial_message: "Where is my refund?",
        checks: [
          { type: "contains_phrases", phrases: ["refund"], case_sensitive: false },
          { type: "llm_judge", expected_answer: "In 5 days", criteria: null },
        ],
        expected_outcomes: { Polite: "The agent is polite" },
        ground_truth: "In 5 days",
        difficulty: "hard",
      },
      {
        name: "Angry",
        persona: { type: "Angry customer", description: "Waited long", instructions: "Complain" },
        max_turns: 5,
        expected_tool_calls: [{ tool: "lookup", expected_params: { id: "1" } }],
      },
    ];
    expect((await post(token, suite.id, "", JSON.stringify(original), "application/json")).status).toBe(201);
    const documents = async (suiteId: string) =>
      JSON.parse(
        (await call(exportRoute, { url: `/api/v1/suites/${suiteId}/test-cases/export?format=json`, token, params: { id: suiteId } })).text,
      );
    const before = await documents(suite.id);
    for (const format of ["promptfoo", "deepeval", "langfuse"] as const) {
      const file = await call(exportRoute, {
        url: `/api/v1/suites/${suite.id}/test-cases/export?format=${format}`,
        token,
        params: { id: suite.id },
      });
      expect(file.status).toBe(200);
      // promptfoo cannot check tool calls: named in the header (and the file), kept for the way back.
      expect(file.headers.get("x-assay-not-exported")).toBe(format === "promptfoo" ? "1" : "0");
      const target = await makeSuite(workspaceId);
      const back = await post(token, target.id, `format=${format}`, file.text, "text/plain");
      expect(back.status, JSON.stringify(back.json)).toBe(201);
      expect(await documents(target.id), format).toEqual(before);
    }
  });
});
