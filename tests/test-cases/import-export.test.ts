import { beforeEach, describe, expect, it } from "vitest";
import YAML from "yaml";
import { db } from "@/lib/db";
import { createTestCase, listTestCases, type TestCaseDto } from "@/lib/test-cases/service";
import { exportTestCases, importTestCases, parseCasesDocument, validateImport } from "@/lib/test-cases/import-export";
import { RUNNABLE_MESSAGE, testCaseListQuery } from "@/lib/test-cases/schemas";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { addMember, CASE_FIELDS, exportText, makeWorkspace, makeSuite, rejection, runnableCase } from "../helpers/factories";

let ctx: WorkspaceContext;
let suiteId: string;

beforeEach(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  suiteId = (await makeSuite(ctx.workspaceId, "Billing: Support (EU) ✓")).id;
});

const all = async (suite: string) => (await listTestCases(ctx, suite, testCaseListQuery.parse({ limit: 200 }))).data;

/** Cases meant to stress serialisation: nulls, unicode, multi-line text, YAML look-alikes, nested JSON. */
const tricky: Record<string, unknown>[] = [
  {
    name: "Multi-turn refund — 返金 🙂",
    description: "Line one\nLine two\n\n  indented line with trailing spaces   \n",
    difficulty: "hard",
    tags: ["normal", "tool-heavy", "ünïcødé"],
    status: "active",
    persona: {
      type: "frustrated-user",
      description: 'Waited 3 weeks: "still nothing"',
      instructions: "- be curt\n- ask for a manager\n# not a comment",
    },
    initial_message: "yes",
    user_context: {
      order: { id: "A-1", items: [{ sku: "X", qty: 2, price: 9.99 }], notes: null },
      vip: true,
      since: "2024-01-01",
      zip: "01234",
      code: "0x1F",
      empty: {},
      list: [],
    },
    max_turns: 6,
    expected_outcomes: { "refund issued": true, tone: "apologetic", "max wait (days)": 5, escalation: null, details: { channel: "email" } },
    expected_tool_calls: [
      { tool: "lookup_order", expected_params: { order_id: "A-1", include: ["items"] } },
      { tool: "issue_refund", expected_params: null },
      { tool: "delete_account", expected_params: null, forbidden: true },
    ],
    evaluation_criteria_override: "Pass only if:\n1. the refund is issued\n2. tone: apologetic",
    checks: [
      { type: "contains_phrases", phrases: ["refund", "Refund #", "null", "~"], case_sensitive: true },
      { type: "semantic_similarity", expected_answer: "Your refund is on its way.", threshold: 0.85 },
      { type: "llm_judge", expected_answer: "Apologises and refunds", criteria: null },
      { type: "llm_judge", expected_answer: "Explains timing", criteria: "Mentions 5 days" },
    ],
    mode: "any",
    ground_truth: "Refunds take 5 business days.\n",
  },
  { name: "null", status: "draft", description: "~", initial_message: "null", ground_truth: "true" },
  {
    name: "- dash: colon # hash",
    status: "archived",
    initial_message: "'quoted' and \"double\"",
    tags: ["edge-case"],
    max_turns: null,
    user_context: { "key with: colon": "@at", "1": "numeric key" },
  },
  {
    name: "tabs\tand\r\nCRLF",
    initial_message: "   leading spaces",
    expected_outcomes: { ok: false },
    persona: { type: "p", description: "d", instructions: "i" },
  },
];

describe("export → import round trip", () => {
  for (const format of ["yaml", "json"] as const) {
    it(`reproduces every field identically (${format})`, async () => {
      for (const c of tricky) await createTestCase(ctx, suiteId, c);
      const original = await all(suiteId);
      const file = await exportText(ctx, suiteId, format);
      expect(file.filename).toBe(`billing-support-eu-test-cases.${format}`);
      expect(file.content_type).toBe(format === "json" ? "application/json; charset=utf-8" : "application/yaml; charset=utf-8");

      const target = await makeSuite(ctx.workspaceId);
      const result = await importTestCases(ctx, target.id, parseCasesDocument(file.body, format), { validOnly: false });
      expect(result).toEqual({ imported: tricky.length, would_import: tricky.length, skipped: 0, errors: [] });
      const copy = await all(target.id);
      expect(copy).toHaveLength(original.length);
      original.forEach((o, i) => {
        for (const f of CASE_FIELDS) expect({ case: i, field: f, value: copy[i]![f] }).toEqual({ case: i, field: f, value: o[f] });
        expect(copy[i]!.expected_tool_calls).toStrictEqual(o.expected_tool_calls);
      });
      // Exporting the copy gives the same document, byte for byte.
      expect((await exportText(ctx, target.id, format)).body).toBe(file.body);
    });
  }

  it("writes the test case format's field order without ids, timestamps or sort orders", async () => {
    await createTestCase(ctx, suiteId, runnableCase({ name: "one" }));
    const json = JSON.parse((await exportText(ctx, suiteId, "json")).body) as Record<string, unknown>[];
    expect(Object.keys(json[0]!)).toEqual([...CASE_FIELDS]);
    const yaml = YAML.parse((await exportText(ctx, suiteId, "yaml")).body) as Record<string, unknown>[];
    expect(yaml).toEqual(json);
  });

  it("writes YAML that YAML 1.1 readers (PyYAML) read back to the same values", async () => {
    for (const c of tricky) await createTestCase(ctx, suiteId, c);
    await createTestCase(
      ctx,
      suiteId,
      runnableCase({ name: "on", tags: ["no", "Off", "2024-01-01", "1_000", "0o17", "~", "=", "<<", "+1", ".5"], initial_message: "Y" }),
    );
    const json: unknown = JSON.parse((await exportText(ctx, suiteId, "json")).body);
    const yaml = (await exportText(ctx, suiteId, "yaml")).body;
    expect(YAML.parse(yaml, { version: "1.1" })).toEqual(json);
    expect(YAML.parse(yaml)).toEqual(json);
  });

  it("exports live cases only, in sort order", async () => {
    const b = await createTestCase(ctx, suiteId, runnableCase({ name: "b", sort_order: 5 }));
    await createTestCase(ctx, suiteId, runnableCase({ name: "a", sort_order: 1 }));
    await db.testCase.update({ where: { id: b.id }, data: { deletedAt: new Date() } });
    await createTestCase(ctx, suiteId, runnableCase({ name: "c" }));
    const names = (JSON.parse((await exportText(ctx, suiteId, "json")).body) as { name: string }[]).map((c) => c.name);
    expect(names).toEqual(["a", "c"]);
  });

  it("streams a suite larger than a page: the same document as one written whole, every case once in sort order", async () => {
    await db.testCase.createMany({
      data: Array.from({ length: 450 }, (_, i) => ({
        workspaceId: ctx.workspaceId,
        suiteId,
        name: `case ${i}`,
        initialMessage: `question ${i}\nsecond line`,
        // Ties on sortOrder across page boundaries: the id breaks them.
        sortOrder: Math.floor(i / 3),
      })),
    });
    const json = (await exportText(ctx, suiteId, "json")).body;
    const parsed = JSON.parse(json) as { name: string }[];
    expect(json).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    expect(parsed).toHaveLength(450);
    expect(new Set(parsed.map((c) => c.name)).size).toBe(450);
    expect(YAML.parse((await exportText(ctx, suiteId, "yaml")).body)).toEqual(parsed);
  });
});

describe("import", () => {
  const doc = [
    runnableCase({ name: "ok 1" }),
    { name: "no opener" },
    runnableCase({ name: "ok 2", checks: [{ type: "semantic_similarity", expected_answer: "x", threshold: 1.5 }], max_turns: 0 }),
    runnableCase({ name: "ok 3", tags: ["red-team"] }),
    "not a case",
  ];

  it("is all-or-nothing and reports every error with its case index and field path", async () => {
    await createTestCase(ctx, suiteId, runnableCase({ name: "existing" }));
    const err = await rejection(importTestCases(ctx, suiteId, doc, { validOnly: false }), ValidationError);
    expect(err.message).toBe("3 of 5 test cases are invalid; nothing was imported");
    expect(err.issues).toEqual([
      { path: "1.status", message: RUNNABLE_MESSAGE },
      { path: "2.max_turns", message: "Max turns must be at least 1" },
      { path: "2.checks.0.threshold", message: "Threshold must be between 0 and 1" },
      { path: "4", message: "Invalid input: expected object, received string" },
    ]);
    expect(await db.testCase.count({ where: { suiteId } })).toBe(1);
  });

  it("imports only the valid cases when asked, appended in file order", async () => {
    await createTestCase(ctx, suiteId, runnableCase({ name: "existing" }));
    const result = await importTestCases(ctx, suiteId, { test_cases: doc }, { validOnly: true });
    expect(result).toMatchObject({ imported: 2, skipped: 3 });
    expect(result.errors.map((e) => `${e.index}:${e.path}`)).toEqual(["1:status", "2:max_turns", "2:checks.0.threshold", "4:"]);
    expect((await all(suiteId)).map((c) => c.name)).toEqual(["existing", "ok 1", "ok 3"]);
  });

  it("ignores ids, timestamps and sort orders in the document", async () => {
    const existing = await createTestCase(ctx, suiteId, runnableCase({ name: "existing" }));
    const other = await makeSuite(ctx.workspaceId);
    await importTestCases(ctx, other.id, [{ ...existing, name: "copied", sort_order: 0 }], { validOnly: false });
    const [copied] = await all(other.id);
    expect(copied).toMatchObject({ name: "copied", initial_message: existing.initial_message, sort_order: 0 });
    expect(copied!.id).not.toBe(existing.id);
    expect((await all(suiteId)).map((c: TestCaseDto) => c.name)).toEqual(["existing"]);
  });

  it("refuses documents that are not a list of cases", () => {
    for (const raw of [{ name: "x" }, "x", null, { test_cases: "x" }]) {
      expect(() => validateImport(raw)).toThrow(ValidationError);
    }
    expect(validateImport({ test_cases: [] })).toEqual({ valid: [], errors: [] });
  });

  it("needs an editor and a live suite of the workspace", async () => {
    const { ctx: viewer } = await addMember(ctx.workspaceId, "viewer");
    await rejection(importTestCases(viewer, suiteId, [runnableCase()], { validOnly: false }), ForbiddenError);
    const { ctx: other } = await makeWorkspace("owner");
    await rejection(importTestCases(other, suiteId, [runnableCase()], { validOnly: false }), NotFoundError);
    await rejection(exportTestCases(other, suiteId, "yaml"), NotFoundError);
    expect((await exportText(viewer, suiteId, "json")).body).toBe("[]\n");
  });
});

describe("parseCasesDocument", () => {
  it("reads YAML and JSON, as a list or under test_cases", () => {
    expect(parseCasesDocument("- name: a\n  tags: [x, y]\n")).toEqual([{ name: "a", tags: ["x", "y"] }]);
    expect(parseCasesDocument("test_cases:\n  - name: a\n", "yaml")).toEqual([{ name: "a" }]);
    expect(parseCasesDocument('{"test_cases": [{"name": "a"}]}', "json")).toEqual([{ name: "a" }]);
    expect(parseCasesDocument('[{"name": "a"}]')).toEqual([{ name: "a" }]);
  });

  it("reports YAML syntax errors with line and column", () => {
    const err = (() => {
      try {
        parseCasesDocument("- name: a\n  tags: [x, y\n- name: b\n", "yaml");
      } catch (e) {
        return e;
      }
    })() as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.issues[0]?.message).toMatch(/^Line \d+, column \d+: /);
    expect(err.message).toMatch(/^The YAML document is invalid: Line \d+/);
  });

  it("reports JSON syntax errors with line and column when known", () => {
    try {
      parseCasesDocument('[\n  {"name": "a",}\n]', "json");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).issues[0]?.message).toMatch(/^Line 2, column \d+: /);
    }
  });

  it("refuses empty documents and other shapes", () => {
    expect(() => parseCasesDocument("   ")).toThrow(ValidationError);
    expect(() => parseCasesDocument("name: a\n")).toThrow("Expected a list of test cases");
    expect(() => parseCasesDocument("42", "json")).toThrow(ValidationError);
  });
});
