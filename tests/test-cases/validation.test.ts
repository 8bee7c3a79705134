import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestCase, updateTestCase } from "@/lib/test-cases/service";
import { CRITERIA_WITHOUT_OUTCOMES_MESSAGE, RUNNABLE_MESSAGE, testCaseInput } from "@/lib/test-cases/schemas";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { makeWorkspace, issuesOf, makeSuite, runnableCase } from "../helpers/factories";
import { CASE_DEFAULTS } from "./formats/fixtures";

let ctx: WorkspaceContext;
let suiteId: string;

beforeAll(async () => {
  ({ ctx } = await makeWorkspace("editor"));
  suiteId = (await makeSuite(ctx.workspaceId)).id;
});

/** Creating `input` through the service fails with exactly these issues (path → message). */
async function expectIssues(input: unknown, expected: Record<string, string>) {
  const issues = await issuesOf(createTestCase(ctx, suiteId, input));
  expect(Object.fromEntries(issues.map((i) => [i.path, i.message]))).toEqual(expected);
}

describe("test case field rules (service validation, issue paths relative to the case)", () => {
  it("requires a name of at most 255 characters", async () => {
    await expectIssues({ initial_message: "hi" }, { name: "Name is required" });
    await expectIssues(runnableCase({ name: "   " }), { name: "Name is required" });
    await expectIssues(runnableCase({ name: "x".repeat(256) }), { name: "Name must be at most 255 characters" });
    const ok = await createTestCase(ctx, suiteId, runnableCase({ name: "é".repeat(255) }));
    expect(ok.name).toHaveLength(255);
  });

  it("refuses an evaluation criteria override on a case without expected outcomes (it would never be used)", async () => {
    await expectIssues(runnableCase({ evaluation_criteria_override: "Pass only if the refund is issued" }), {
      evaluation_criteria_override: CRITERIA_WITHOUT_OUTCOMES_MESSAGE,
    });
    const judged = await createTestCase(
      ctx,
      suiteId,
      runnableCase({ evaluation_criteria_override: "Pass only if the refund is issued", expected_outcomes: { "refund issued": true } }),
    );
    expect(judged.evaluation_criteria_override).toBe("Pass only if the refund is issued");
    // Removing the outcomes later leaves the override unused: refused too.
    const cleared = await issuesOf(updateTestCase(ctx, judged.id, { expected_outcomes: null }));
    expect(cleared).toEqual([{ path: "evaluation_criteria_override", message: CRITERIA_WITHOUT_OUTCOMES_MESSAGE }]);
    // An empty override is no override.
    expect(
      (await createTestCase(ctx, suiteId, runnableCase({ evaluation_criteria_override: "  " }))).evaluation_criteria_override,
    ).toBeNull();
  });

  it("accepts only normal/hard difficulty, draft/active/archived status and all/any mode", async () => {
    await expectIssues(runnableCase({ difficulty: "easy" }), { difficulty: "Difficulty must be normal or hard" });
    await expectIssues(runnableCase({ status: "paused" }), { status: "Status must be draft, active or archived" });
    await expectIssues(runnableCase({ mode: "most" }), { mode: "Mode must be all or any" });
  });

  it("applies the test case format's defaults", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase());
    expect(c).toMatchObject(CASE_DEFAULTS);
  });

  it("requires every persona part", async () => {
    await expectIssues(runnableCase({ persona: { type: "angry" } }), {
      "persona.description": "Persona description is required",
      "persona.instructions": "Persona instructions are required",
    });
    await expectIssues(runnableCase({ persona: { type: " ", description: "d", instructions: "" } }), {
      "persona.type": "Persona type is required",
      "persona.instructions": "Persona instructions are required",
    });
    await expectIssues(runnableCase({ persona: "angry" }), {
      persona: "Persona must be an object with type, description and instructions",
    });
  });

  it("takes max_turns as an integer of at least 1, or null for no cap", async () => {
    await expectIssues(runnableCase({ max_turns: 0 }), { max_turns: "Max turns must be at least 1" });
    await expectIssues(runnableCase({ max_turns: 2.5 }), { max_turns: "Max turns must be a whole number" });
    await expectIssues(runnableCase({ max_turns: "3" }), { max_turns: "Max turns must be a whole number" });
    expect((await createTestCase(ctx, suiteId, runnableCase({ max_turns: null }))).max_turns).toBeNull();
    expect((await createTestCase(ctx, suiteId, runnableCase({ max_turns: 1 }))).max_turns).toBe(1);
  });

  it("validates each check type", async () => {
    await expectIssues(
      runnableCase({
        checks: [
          { type: "contains_phrases", phrases: [] },
          { type: "contains_phrases", phrases: ["ok", ""] },
          { type: "semantic_similarity", expected_answer: "yes", threshold: 1.01 },
          { type: "semantic_similarity", expected_answer: "yes", threshold: -0.1 },
          { type: "semantic_similarity", expected_answer: " ", threshold: 0.5 },
          { type: "semantic_similarity", expected_answer: "yes" },
          { type: "llm_judge" },
          { type: "regex", pattern: "x" },
        ],
      }),
      {
        "checks.0.phrases": "Add at least one phrase",
        "checks.1.phrases.1": "Phrase cannot be empty",
        "checks.2.threshold": "Threshold must be between 0 and 1",
        "checks.3.threshold": "Threshold must be between 0 and 1",
        "checks.4.expected_answer": "Expected answer is required",
        "checks.5.threshold": "Threshold must be a number",
        "checks.6.expected_answer": "Expected answer is required",
        "checks.7.type": "Check type must be contains_phrases, semantic_similarity or llm_judge",
      },
    );
    const ok = await createTestCase(
      ctx,
      suiteId,
      runnableCase({
        mode: "any",
        checks: [
          { type: "contains_phrases", phrases: ["Refund"], case_sensitive: true },
          { type: "contains_phrases", phrases: ["refund"] },
          { type: "semantic_similarity", expected_answer: "We refund in 5 days", threshold: 0 },
          { type: "semantic_similarity", expected_answer: "We refund in 5 days", threshold: 1 },
          { type: "llm_judge", expected_answer: "Polite refusal", criteria: "Must not reveal the prompt" },
          { type: "llm_judge", expected_answer: "Polite refusal", criteria: "" },
        ],
      }),
    );
    expect(ok.mode).toBe("any");
    expect(ok.checks).toEqual([
      { type: "contains_phrases", phrases: ["Refund"], case_sensitive: true },
      { type: "contains_phrases", phrases: ["refund"], case_sensitive: false },
      { type: "semantic_similarity", expected_answer: "We refund in 5 days", threshold: 0 },
      { type: "semantic_similarity", expected_answer: "We refund in 5 days", threshold: 1 },
      { type: "llm_judge", expected_answer: "Polite refusal", criteria: "Must not reveal the prompt" },
      { type: "llm_judge", expected_answer: "Polite refusal", criteria: null },
    ]);
  });

  it("requires a tool name in expected_tool_calls; params are an object or empty", async () => {
    await expectIssues(
      runnableCase({ expected_tool_calls: [{ expected_params: { id: 1 } }, { tool: " " }, { tool: "a", expected_params: [1] }] }),
      {
        "expected_tool_calls.0.tool": "Tool name is required",
        "expected_tool_calls.1.tool": "Tool name is required",
        "expected_tool_calls.2.expected_params": "Expected params must be a JSON object or empty",
      },
    );
    const ok = await createTestCase(
      ctx,
      suiteId,
      runnableCase({
        expected_tool_calls: [
          { tool: "lookup_order", expected_params: { order_id: "A1" } },
          { tool: "refund" },
          { tool: "delete_account", forbidden: true },
        ],
      }),
    );
    expect(ok.expected_tool_calls).toEqual([
      { tool: "lookup_order", expected_params: { order_id: "A1" } },
      { tool: "refund", expected_params: null },
      { tool: "delete_account", expected_params: null, forbidden: true },
    ]);
    expect((await createTestCase(ctx, suiteId, runnableCase({ expected_tool_calls: [] }))).expected_tool_calls).toBeNull();
  });

  it("requires non-empty expected outcome labels", async () => {
    await expectIssues(runnableCase({ expected_outcomes: { "": true } }), { expected_outcomes: "Outcome labels cannot be empty" });
    await expectIssues(runnableCase({ expected_outcomes: ["refund issued"] }), {
      expected_outcomes: "Expected outcomes must be a JSON object of label → value",
    });
    const ok = await createTestCase(ctx, suiteId, runnableCase({ expected_outcomes: { " refund issued ": true, tone: "apologetic" } }));
    expect(ok.expected_outcomes).toEqual({ "refund issued": true, tone: "apologetic" });
    expect((await createTestCase(ctx, suiteId, runnableCase({ expected_outcomes: {} }))).expected_outcomes).toBeNull();
  });

  it("requires user_context to be a JSON object", async () => {
    for (const bad of [[1, 2], "text", 3, true]) {
      await expectIssues(runnableCase({ user_context: bad }), { user_context: "User context must be a JSON object" });
    }
    const nested = { account: { id: 7, plan: "pro", flags: ["beta"] }, orders: [{ id: "A1", total: 12.5 }], vip: false, note: null };
    expect((await createTestCase(ctx, suiteId, runnableCase({ user_context: nested }))).user_context).toEqual(nested);
  });

  it("validates tags and removes duplicates", async () => {
    await expectIssues(runnableCase({ tags: ["ok", "a,b", " ", "x".repeat(51)] }), {
      "tags.1": "Tags cannot contain commas",
      "tags.2": "Tags cannot be empty",
      "tags.3": "Tags are at most 50 characters",
    });
    await expectIssues(runnableCase({ tags: "red-team" }), { tags: "Tags must be a list of strings" });
    expect((await createTestCase(ctx, suiteId, runnableCase({ tags: [" red-team", "red-team", "billing"] }))).tags).toEqual([
      "red-team",
      "billing",
    ]);
  });

  it("stores blank optional texts as null", async () => {
    const c = await createTestCase(ctx, suiteId, runnableCase({ description: "  ", evaluation_criteria_override: "", ground_truth: null }));
    expect(c).toMatchObject({ description: null, evaluation_criteria_override: null, ground_truth: null });
  });

  it("refuses an active case without initial_message and persona, and reports it with the other issues", async () => {
    await expectIssues({ name: "no opener" }, { status: RUNNABLE_MESSAGE });
    await expectIssues({ name: "no opener", status: "active", initial_message: "   " }, { status: RUNNABLE_MESSAGE });
    await expectIssues(
      { name: "", status: "active", max_turns: 0 },
      {
        name: "Name is required",
        max_turns: "Max turns must be at least 1",
        status: RUNNABLE_MESSAGE,
      },
    );
    const draft = await createTestCase(ctx, suiteId, { name: "just a name", status: "draft" });
    expect(draft.status).toBe("draft");
    const persona = { type: "curious", description: "A curious student", instructions: "Ask about prices" };
    expect((await createTestCase(ctx, suiteId, { name: "persona only", persona })).status).toBe("active");
    expect((await createTestCase(ctx, suiteId, { name: "archived shell", status: "archived" })).status).toBe("archived");
  });

  it("writes nothing when validation fails", async () => {
    const before = await db.testCase.count({ where: { suiteId } });
    await issuesOf(createTestCase(ctx, suiteId, runnableCase({ max_turns: -1 })));
    expect(await db.testCase.count({ where: { suiteId } })).toBe(before);
  });

  it("the schema itself reports the same paths (forms use it on the client)", () => {
    const r = testCaseInput.safeParse({
      name: "x",
      status: "draft",
      checks: [{ type: "semantic_similarity", expected_answer: "a", threshold: 3 }],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path.join("."))).toEqual(["checks.0.threshold"]);
  });
});
