import { describe, expect, it } from "vitest";
import { ValidationError } from "@/lib/errors";
import { exportPromptfoo, importPromptfoo } from "@/lib/test-cases/formats/promptfoo";
import { RUBRIC_ANSWER } from "@/lib/test-cases/formats/promptfoo-assertions";
import { testCaseInput } from "@/lib/test-cases/schemas";
import { roundTripCase, expectValidCases } from "./fixtures";

/**
 * promptfoo configs in the shapes its documentation shows (prompts with vars, defaultTest, each
 * assertion type, several providers, file:// tests in a bundle, CSV tests, a simulated user),
 * mapped field by field, with the report naming what was not carried over and why.
 */

const enc = (s: string) => new TextEncoder().encode(s);

const CONFIG = `description: Customer support
prompts:
  - "You are a helpful support agent. Answer the customer: {{question}}"
  - "Answer briefly: {{question}}"
providers:
  - openai:gpt-4o-mini
  - id: anthropic:messages:claude-3-5-sonnet-20241022
    label: sonnet
defaultTest:
  vars:
    language: English
  assert:
    - type: icontains
      value: order
tests:
  - description: Order status
    vars:
      question: Where is order {{id}}?
      id: "42"
    assert:
      - type: contains
        value: shipped
      - type: icontains-all
        value: [order, "42"]
      - type: similar
        value: Your order 42 has shipped
        threshold: 0.8
      - type: llm-rubric
        value: Is polite and gives the order's status
      - type: model-graded-closedqa
        value: mentions a delivery date
      - type: factuality
        value: Order 42 shipped on Monday
      - type: not-contains
        value: sorry
      - type: javascript
        value: output.length < 200
      - type: python
        value: len(output) < 200
      - type: equals
        value: exact
      - type: regex
        value: "\\\\d+"
      - type: is-json
      - type: cost
        threshold: 0.01
      - type: latency
        threshold: 3000
    metadata:
      team: billing
      tags: [smoke]
      priority: 2
  - description: Any greeting
    vars:
      question: Say hi
    assert:
      - type: contains-any
        value: [hello, hi]
`;

describe("importPromptfoo", () => {
  const { items, notes } = importPromptfoo({ text: CONFIG });

  it("renders the first prompt with the test's vars merged over defaultTest's", () => {
    const order = items[0]!;
    expect(order.case!.initial_message).toBe("You are a helpful support agent. Answer the customer: Where is order {{id}}?");
    expect(order.case!.name).toBe("Order status");
    // Vars the prompt does not use are kept for reference.
    expect(order.case!.user_context).toMatchObject({ vars: { id: "42", language: "English" }, metadata: { priority: 2 } });
    expect(order.case!.tags).toEqual(["smoke", "team:billing"]);
    expect(order.report.mapped).toContain("prompts[0] rendered with the vars → initial_message");
  });

  it("maps each carried assertion (defaultTest's first) and names every other with its reason", () => {
    const c = items[0]!.case!;
    expect(c.checks).toEqual([
      { type: "contains_phrases", phrases: ["order"], case_sensitive: false },
      { type: "contains_phrases", phrases: ["shipped"], case_sensitive: true },
      { type: "contains_phrases", phrases: ["order", "42"], case_sensitive: false },
      { type: "semantic_similarity", expected_answer: "Your order 42 has shipped", threshold: 0.8 },
      { type: "llm_judge", expected_answer: RUBRIC_ANSWER, criteria: "Is polite and gives the order's status" },
      { type: "llm_judge", expected_answer: RUBRIC_ANSWER, criteria: "mentions a delivery date" },
      { type: "llm_judge", expected_answer: "Order 42 shipped on Monday", criteria: null },
    ]);
    expect(c.mode).toBeUndefined();
    expect(c.ground_truth).toBe("Order 42 shipped on Monday");
    const dropped = Object.fromEntries(items[0]!.report.dropped.map((d) => [d.field, d.reason]));
    expect(Object.keys(dropped)).toEqual([
      "assert[7]",
      "assert[8]",
      "assert[9]",
      "assert[10]",
      "assert[11]",
      "assert[12]",
      "assert[13]",
      "assert[14]",
    ]);
    expect(dropped["assert[7]"]).toMatch(/^not-contains: a negated assertion/);
    expect(dropped["assert[8]"]).toBe("javascript assertions run code; Assay has no code checks");
    expect(dropped["assert[9]"]).toBe("python assertions run code; Assay has no code checks");
    expect(dropped["assert[10]"]).toMatch(/exact-match/);
    expect(dropped["assert[11]"]).toMatch(/regular expressions/);
    expect(dropped["assert[12]"]).toMatch(/JSON validity/);
    expect(dropped["assert[13]"]).toMatch(/cost/);
    expect(dropped["assert[14]"]).toMatch(/latency/);
  });

  it("makes contains-any one check per phrase with mode any only when nothing else would be weakened", () => {
    // defaultTest's icontains makes two assertions here: "any" cannot be said.
    expect(items[1]!.case!.checks).toEqual([{ type: "contains_phrases", phrases: ["order"], case_sensitive: false }]);
    expect(items[1]!.report.dropped[0]).toMatchObject({ field: "assert[1]", reason: expect.stringMatching(/means "any of"/) });
    const alone = importPromptfoo({
      text: 'prompts: ["{{q}}"]\ntests:\n  - vars: {q: hi}\n    assert:\n      - type: contains-any\n        value: [hello, hi]\n',
    });
    expect(alone.items[0]!.case).toMatchObject({
      mode: "any",
      checks: [
        { type: "contains_phrases", phrases: ["hello"], case_sensitive: true },
        { type: "contains_phrases", phrases: ["hi"], case_sensitive: true },
      ],
    });
  });

  it("notes the other prompts and lists the providers as possible model configurations", () => {
    expect(notes).toEqual([
      "Only the first prompt is rendered; not imported: Answer briefly: {{question}}",
      "Providers: openai:gpt-4o-mini, sonnet — possible model configurations: add them in Assay to run or compare the suite's agent on each",
    ]);
    expectValidCases(items);
  });

  it("reads file:// tests from a bundle (YAML and CSV), reports a missing file and refuses paths outside it", () => {
    const config = `prompts: ["Q: {{question}}"]\ntests:\n  - file://tests/*.yaml\n  - file://cases.csv\n  - file://missing.yaml\n  - file://../secret.yaml\n`;
    const files = new Map([
      ["tests/a.yaml", enc("- description: From YAML\n  vars: {question: one}\n  assert: [{type: contains, value: x}]\n")],
      ["tests/b.yaml", enc("- vars: {question: two}\n")],
      [
        "cases.csv",
        enc(
          'question,__expected1,__expected2,__description,__metadata:area\n"Hi, there",contains: hello,similar(0.9): Hello friend,CSV row,greetings\n',
        ),
      ],
    ]);
    const { items } = importPromptfoo({ text: config, files });
    expect(items.map((i) => i.case?.initial_message ?? null)).toEqual(["Q: one", "Q: two", "Q: Hi, there", null, null]);
    expect(items[0]!.case).toMatchObject({ name: "From YAML", checks: [{ type: "contains_phrases", phrases: ["x"] }] });
    expect(items[2]!.case).toMatchObject({
      name: "CSV row",
      tags: ["area:greetings"],
      checks: [
        { type: "contains_phrases", phrases: ["hello"], case_sensitive: true },
        { type: "semantic_similarity", expected_answer: "Hello friend", threshold: 0.9 },
      ],
    });
    expect(items[3]!.error).toMatch(/file:\/\/missing\.yaml is not in the upload/);
    expect(items[4]!.error).toMatch(/only paths inside the uploaded bundle/);
    // Without a bundle, a file reference is that item's error.
    expect(importPromptfoo({ text: config }).items[0]!.error).toMatch(/is not in the upload/);
  });

  it("renders chat prompts, reports Nunjucks it does not render, and reads a simulated-user test as a persona case", () => {
    const chat = `prompts:
  - '[{"role": "system", "content": "You sell {{product}}"}, {"role": "user", "content": "{{question}} {{ name | upper }}"}]'
tests:
  - vars: {product: bikes, question: Price?, name: ann}
  - description: Angry rider
    provider:
      id: promptfoo:simulated-user
      config: {maxTurns: 6}
    vars:
      instructions: You are angry that your bike arrived broken.
`;
    const { items } = importPromptfoo({ text: chat });
    expect(items[0]!.case).toMatchObject({
      initial_message: "Price? {{ name | upper }}",
      user_context: { system_prompt: "You sell bikes" },
    });
    expect(items[0]!.report.dropped).toContainEqual({ field: "prompt", reason: expect.stringMatching(/Nunjucks features .*filter/) });
    expect(items[1]!.case).toMatchObject({
      name: "Angry rider",
      persona: { type: "Simulated user", instructions: "You are angry that your bike arrived broken." },
      max_turns: 6,
      initial_message: null,
    });
    expectValidCases(items);
  });

  it("refuses what is not a config, and reports a test that asks nothing", () => {
    expect(() => importPromptfoo({ text: "- just\n- a list\n" })).toThrow(ValidationError);
    expect(() => importPromptfoo({ text: "prompts: [\n" })).toThrow(/YAML document is invalid/);
    const { items } = importPromptfoo({ text: "tests:\n  - vars: {a: 1, b: 2}\n" });
    expect(items[0]!.error).toMatch(/Nothing to ask the agent/);
  });
});

describe("exportPromptfoo", () => {
  it("writes a runnable config that imports back to the same cases, and names what promptfoo cannot hold", () => {
    const cases = [
      roundTripCase(),
      roundTripCase({
        name: "Any of two",
        mode: "any",
        checks: [
          { type: "contains_phrases", phrases: ["a"], case_sensitive: false },
          { type: "semantic_similarity", expected_answer: "b", threshold: 0.7 },
        ],
        expected_tool_calls: null,
        files: null,
      }),
      roundTripCase({
        name: "Persona",
        persona: { type: "Angry customer", description: "Waited two weeks", instructions: "Demand a refund" },
        initial_message: null,
        max_turns: 7,
        checks: [],
        expected_tool_calls: null,
        files: null,
      }),
    ];
    const out = exportPromptfoo(cases, { suiteName: "Refunds" });
    expect(out.text).toMatch(/^# Exported from Assay: suite "Refunds", 3 test cases\./);
    expect(out.text).toContain('# Not exported in full: "Full case": its expected tool calls are not checked by promptfoo');
    expect(out.not_exported.map((n) => n.name)).toEqual(["Full case"]);
    const back = importPromptfoo({ text: out.text });
    expect(back.notes).toEqual([expect.stringMatching(/^Providers: your agent/)]);
    back.items.forEach((item, k) => {
      const parsed = testCaseInput.parse(item.case);
      const expected = testCaseInput.parse({ ...cases[k], files: null });
      expect(parsed).toEqual(expected);
    });
  });
});
