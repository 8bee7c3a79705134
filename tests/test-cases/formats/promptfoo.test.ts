import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { ValidationError } from "@/lib/errors";
import { importPromptfoo } from "@/lib/test-cases/formats/promptfoo";
import { exportPromptfoo } from "@/lib/test-cases/formats/promptfoo-export";
import { FACTUALITY_CRITERIA, RUBRIC_ANSWER, SAME_INFORMATION } from "@/lib/test-cases/formats/promptfoo-assertions";
import type { ConvertedItem } from "@/lib/test-cases/formats/types";
import { testCaseInput } from "@/lib/test-cases/schemas";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { expectValidCases, roundTripCase } from "./fixtures";

/**
 * promptfoo configs in the shapes its documentation shows (prompts with vars, defaultTest, each
 * assertion type, several providers, file:// tests in a bundle, CSV tests, a simulated user),
 * mapped field by field, with the report naming what was not carried over and why; and the export
 * read back to the same cases.
 */

const enc = (s: string) => new TextEncoder().encode(s);
const bundle = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([p, t]) => [p, enc(t)]));
const droppedOf = (item: ConvertedItem) => Object.fromEntries(item.report.dropped.map((d) => [d.field, d.reason]));

const CONFIG = `description: Customer support
prompts:
  - "You are a helpful support agent. Answer the customer: {{question}}"
  - id: file://prompts/brief.txt
    label: brief
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
      question: Where is order 42?
      order_id: 42
    assert:
      - type: contains
        value: shipped
      - type: icontains-all
        value: [order, "{{order_id}}"]
      - type: contains-all
        value: "tracking, number"
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

describe("importPromptfoo: a config as promptfoo's docs write it", () => {
  const { items, notes } = importPromptfoo({ text: CONFIG });
  const order = items[0]!;

  it("renders the first prompt with the test's vars merged over defaultTest's, keeping the unused vars", () => {
    expect(order.source).toEqual({ type: "import", format: "promptfoo", item_id: null, trace_id: null });
    expect(order.report.label).toBe("Order status");
    expect(order.case).toMatchObject({
      name: "Order status",
      initial_message: "You are a helpful support agent. Answer the customer: Where is order 42?",
      user_context: { vars: { language: "English", order_id: 42 }, metadata: { priority: 2 } },
      tags: ["smoke", "team=billing"],
    });
    expect(order.report.mapped).toEqual(
      expect.arrayContaining([
        "prompts[0] rendered with the test's vars → initial_message",
        "vars the prompt does not use (language, order_id) → user_context.vars",
        "description → name",
        "metadata.tags → tags",
        "metadata (team) → tags key=value",
        "metadata (priority) → user_context.metadata",
      ]),
    );
  });

  it("maps each carried assertion (defaultTest's first), rendering {{vars}} in values", () => {
    expect(order.case!.checks).toEqual([
      { type: "contains_phrases", phrases: ["order"], case_sensitive: false },
      { type: "contains_phrases", phrases: ["shipped"], case_sensitive: true },
      { type: "contains_phrases", phrases: ["order", "42"], case_sensitive: false },
      { type: "contains_phrases", phrases: ["tracking", "number"], case_sensitive: true },
      { type: "semantic_similarity", expected_answer: "Your order 42 has shipped", threshold: 0.8 },
      { type: "llm_judge", expected_answer: RUBRIC_ANSWER, criteria: "Is polite and gives the order's status" },
      { type: "llm_judge", expected_answer: RUBRIC_ANSWER, criteria: "mentions a delivery date" },
      { type: "llm_judge", expected_answer: "Order 42 shipped on Monday", criteria: FACTUALITY_CRITERIA },
    ]);
    expect(order.case!.mode).toBeUndefined();
    expect(order.case!.ground_truth).toBe("Order 42 shipped on Monday");
    expect(order.report.mapped).toEqual(
      expect.arrayContaining([
        "defaultTest.assert[0] icontains → contains_phrases (case-insensitive)",
        "assert[3] similar → semantic_similarity (threshold 0.8)",
        "assert[4] llm-rubric → llm_judge (the rubric as its criteria)",
        "assert[6] factuality → llm_judge against the reference answer (contradictions fail)",
        "factuality's reference answer → ground_truth",
      ]),
    );
  });

  it("names every assertion it cannot carry, with its reason", () => {
    const dropped = droppedOf(order);
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
    expect(dropped["assert[7]"]).toMatch(/^not-contains forbids something in the answer; Assay's checks can only require it/);
    expect(dropped["assert[8]"]).toBe("javascript assertions run code; Assay has no code checks");
    expect(dropped["assert[9]"]).toBe("python assertions run code; Assay has no code checks");
    expect(dropped["assert[10]"]).toMatch(/^an exact-match assertion/);
    expect(dropped["assert[11]"]).toBe("regular expressions are not an Assay check");
    expect(dropped["assert[12]"]).toBe("JSON validity is not an Assay check");
    expect(dropped["assert[13]"]).toBe("cost: Assay reports each result's cost on the run page but does not fail a case on it");
    expect(dropped["assert[14]"]).toBe("latency: Assay measures latency on the run page but does not fail a case on it");
  });

  it("does not let contains-any weaken other checks: it needs the case to itself", () => {
    // defaultTest's icontains is a second check here, so "any" cannot be said.
    expect(items[1]!.case!.checks).toEqual([{ type: "contains_phrases", phrases: ["order"], case_sensitive: false }]);
    expect(items[1]!.case!.mode).toBeUndefined();
    expect(droppedOf(items[1]!)["assert[0]"]).toMatch(
      /^contains-any passes when any one of its values does; .* this test has other checks$/,
    );
  });

  it("notes the other prompts, the providers as possible model configurations, and the suite's description", () => {
    expect(notes).toEqual([
      "Prompt file://prompts/brief.txt names a file: import a zip of the config with the files it references",
      "Providers: openai:gpt-4o-mini, sonnet (anthropic:messages:claude-3-5-sonnet-20241022) — the tests were imported once; add the providers as model configurations to compare them in Assay",
      'The config\'s description ("Customer support") is not imported: it describes the whole suite',
    ]);
    const withFile = importPromptfoo({ text: CONFIG, files: bundle({ "prompts/brief.txt": "Briefly: {{question}}" }) });
    expect(withFile.notes[0]).toBe("Only the first prompt is rendered; not imported: brief");
    expectValidCases(items);
  });
});

describe("importPromptfoo: assertions", () => {
  const one = (asserts: string, vars = "{q: hi}") =>
    importPromptfoo({ text: `prompts: ["{{q}}"]\ntests:\n  - vars: ${vars}\n    assert:\n${asserts}` }).items[0]!;

  it("makes contains-any / icontains-any one check per phrase with mode any when they are the only checks", () => {
    expect(one("      - type: contains-any\n        value: [hello, hi]\n").case).toMatchObject({
      mode: "any",
      checks: [
        { type: "contains_phrases", phrases: ["hello"], case_sensitive: true },
        { type: "contains_phrases", phrases: ["hi"], case_sensitive: true },
      ],
    });
    const i = one("      - type: icontains-any\n        value: 'Hello, Hi'\n");
    expect(i.case).toMatchObject({
      mode: "any",
      checks: [
        { type: "contains_phrases", phrases: ["Hello"], case_sensitive: false },
        { type: "contains_phrases", phrases: ["Hi"], case_sensitive: false },
      ],
    });
    expect(i.report.mapped).toContain("assert[0] icontains-any → 2 checks with mode any (any one passes)");
  });

  it("reads similar's default threshold, and a list of similar values as alternatives", () => {
    const c = one("      - type: similar\n        value: [Hello there, Hi friend]\n").case!;
    expect(c).toMatchObject({
      mode: "any",
      checks: [
        { type: "semantic_similarity", expected_answer: "Hello there", threshold: 0.75 },
        { type: "semantic_similarity", expected_answer: "Hi friend", threshold: 0.75 },
      ],
    });
  });

  it("reads an assert-set: all of it as checks, one-of-n as mode any, a partial threshold as not carried over", () => {
    const set = (threshold: string) =>
      `      - type: assert-set\n${threshold}        assert:\n          - {type: contains, value: a}\n          - {type: icontains, value: b}\n`;
    expect(one(set("")).case).toMatchObject({ checks: [{ phrases: ["a"] }, { phrases: ["b"] }] });
    expect(one(set("")).case!.mode).toBeUndefined();
    expect(one(set("        threshold: 0.5\n")).case).toMatchObject({ mode: "any", checks: [{ phrases: ["a"] }, { phrases: ["b"] }] });
    const partial = one(
      `      - type: assert-set\n        threshold: 0.7\n        assert:\n          - {type: contains, value: a}\n          - {type: contains, value: b}\n          - {type: contains, value: c}\n`,
    );
    expect(partial.case!.checks).toBeUndefined();
    expect(droppedOf(partial)["assert[0]"]).toMatch(
      /^an assert-set that passes when its score reaches 0.7; Assay's checks pass all or any$/,
    );
  });

  it("reports an assertion's weight, metric, grading provider and non-similarity threshold", () => {
    const item = one(
      "      - type: llm-rubric\n        value: Is friendly\n        weight: 2\n        metric: tone\n        threshold: 0.9\n        provider: openai:gpt-4o\n",
    );
    expect(item.case!.checks).toEqual([{ type: "llm_judge", expected_answer: RUBRIC_ANSWER, criteria: "Is friendly" }]);
    expect(droppedOf(item)).toEqual({
      "assert[0].weight": "Assay's checks are not weighted",
      "assert[0].threshold": "Assay's check passes or fails, without a score to reach",
      "assert[0].metric": "promptfoo's metric name groups scores; Assay reports each check by its type",
      "assert[0].provider": "Assay grades with the suite's judge model",
    });
  });

  it("reads a file:// value from the zip, and reports one that is not there", () => {
    const text = `prompts: ["{{q}}"]\ntests:\n  - vars: {q: hi}\n    assert:\n      - {type: llm-rubric, value: "file://rubrics/tone.txt"}\n      - {type: contains, value: "file://missing.txt"}\n`;
    const item = importPromptfoo({ text, files: bundle({ "rubrics/tone.txt": "Is friendly to {{q}}\n" }) }).items[0]!;
    expect(item.case!.checks).toEqual([{ type: "llm_judge", expected_answer: RUBRIC_ANSWER, criteria: "Is friendly to hi" }]);
    expect(item.report.mapped).toContain("assert[0] value file://rubrics/tone.txt → read from the zip");
    expect(droppedOf(item)["assert[1]"]).toBe("its value file://missing.txt is not in the zip (only its text files are read)");
  });
});

describe("importPromptfoo: files in a bundle", () => {
  const CONFIG_WITH_FILES = `prompts: ["Q: {{question}}"]\ntests:\n  - file://tests/*.yaml\n  - file://cases.csv\n  - file://missing.yaml\n  - file://../secret.yaml\n`;
  const FILES = bundle({
    "tests/a.yaml": "- description: From YAML\n  vars: {question: one}\n  assert: [{type: contains, value: x}]\n",
    "tests/b.yaml": "- vars: {question: two, context: file://docs/policy.md}\n",
    "docs/policy.md": "Refunds take 5 days.",
    "cases.csv":
      "question,__expected1,__expected2,__expected3,__expected4,__description,__metadata:area\n" +
      '"Hi, there",icontains: hello,similar(0.9): Hello friend,is-json,Hello!,CSV row,greetings\n' +
      "Bye,javascript: output.length < 10,,,,,\n",
  });

  it("reads YAML (globs) and CSV tests, with their __expected shorthand, __description and __metadata columns", () => {
    const { items, notes } = importPromptfoo({ text: CONFIG_WITH_FILES, files: FILES });
    expect(items.map((i) => i.case?.initial_message ?? null)).toEqual(["Q: one", "Q: two", "Q: Hi, there", "Q: Bye", null, null]);
    expect(items[0]!.case).toMatchObject({
      name: "From YAML",
      checks: [{ type: "contains_phrases", phrases: ["x"], case_sensitive: true }],
    });
    expect(items[1]!.report.label).toBe("test 2 (tests/b.yaml[0])");
    expect(items[1]!.case!.user_context).toEqual({ vars: { context: "Refunds take 5 days." } });
    expect(items[1]!.report.mapped).toContain("vars.context (file://docs/policy.md) → its text from the zip");
    expect(items[2]!.case).toMatchObject({
      name: "CSV row",
      tags: ["area=greetings"],
      checks: [
        { type: "contains_phrases", phrases: ["hello"], case_sensitive: false },
        { type: "semantic_similarity", expected_answer: "Hello friend", threshold: 0.9 },
      ],
    });
    expect(droppedOf(items[2]!)).toEqual({
      "assert[2]": "JSON validity is not an Assay check",
      "assert[3]": expect.stringMatching(/^an exact-match assertion/),
    });
    expect(droppedOf(items[3]!)["assert[0]"]).toBe("javascript assertions run code; Assay has no code checks");
    expect(items[4]!.report.label).toBe("file://missing.yaml");
    expect(items[4]!.error).toBe("file://missing.yaml is not in the zip (only its text files are read)");
    expect(items[5]!.error).toBe("file://../secret.yaml points outside the config's folder; only files inside the uploaded zip are read");
    expect(notes).toEqual([
      "Tests file://missing.yaml is not in the zip (only its text files are read)",
      "Tests file://../secret.yaml points outside the config's folder; only files inside the uploaded zip are read",
    ]);
    expectValidCases(items);
  });

  it("makes every file reference an error item and a note when there is no bundle, and drops file vars", () => {
    const { items, notes } = importPromptfoo({ text: CONFIG_WITH_FILES });
    expect(items.map((i) => i.report.label)).toEqual([
      "file://tests/*.yaml",
      "file://cases.csv",
      "file://missing.yaml",
      "file://../secret.yaml",
    ]);
    expect(items[0]!.error).toBe("file://tests/*.yaml names a file: import a zip of the config with the files it references");
    expect(notes[0]).toBe("Tests file://tests/*.yaml names a file: import a zip of the config with the files it references");
    const vars = importPromptfoo({ text: 'prompts: ["{{question}} {{doc}}"]\ntests:\n  - vars: {question: Hi, doc: file://doc.pdf}\n' });
    expect(vars.items[0]!.case!.initial_message).toBe("Hi {{doc}}");
    expect(vars.items[0]!.report.dropped).toEqual([
      {
        field: "vars.doc",
        reason: "file://doc.pdf names a file: import a zip of the config with the files it references; a file var needs its file",
      },
    ]);
  });

  it("reads prompt files (split on ---) and a defaultTest file from the bundle", () => {
    const text = "prompts: [file://prompts.txt]\ndefaultTest: file://defaults.yaml\ntests:\n  - vars: {question: Hi}\n";
    const files = bundle({
      "prompts.txt": "Answer: {{question}}\n---\nShort: {{question}}\n",
      "defaults.yaml": "assert: [{type: icontains, value: hello}]\n",
    });
    const { items, notes } = importPromptfoo({ text, files });
    expect(notes).toEqual(["Only the first prompt is rendered; not imported: prompts.txt #2"]);
    expect(items[0]!.case).toMatchObject({ initial_message: "Answer: Hi", checks: [{ type: "contains_phrases", phrases: ["hello"] }] });
    expect(importPromptfoo({ text }).notes).toContain("defaultTest file://defaults.yaml was not applied to the tests");
  });
});

describe("importPromptfoo: prompts, providers and the simulated user", () => {
  it("renders a chat prompt message by message: system → user_context.system_prompt, the last user message asked", () => {
    const text = `prompts:
  - '[{"role": "system", "content": "You sell {{product}}"}, {"role": "user", "content": "Hello"}, {"role": "assistant", "content": "Hi!"}, {"role": "user", "content": "{{question}}"}]'
tests:
  - vars: {product: bikes, question: 'Price of the "Rocket"?'}
`;
    const item = importPromptfoo({ text }).items[0]!;
    const c = item.case!;
    expect(c.initial_message).toBe('Price of the "Rocket"?');
    expect(item.report.mapped).toContain("prompts[0][3] (the last user message) → initial_message");
    expect(c.user_context).toEqual({
      system_prompt: "You sell bikes",
      conversation_history: [
        { role: "user", content: "Hello" },
        { role: "assistant", content: "Hi!" },
      ],
    });
  });

  it("reports Nunjucks filters and member access left as written, and asks the question var when the prompt has tags", () => {
    const filters = importPromptfoo({
      text: 'prompts: ["{{ question | upper }} for {{ user.name }}"]\ntests:\n  - vars: {question: hi, user: {name: Ann}}\n',
    }).items[0]!;
    expect(filters.case!.initial_message).toBe("{{ question | upper }} for {{ user.name }}");
    expect(filters.case!.user_context).toEqual({ vars: { question: "hi", user: { name: "Ann" } } });
    expect(droppedOf(filters)["prompts[0]"]).toBe(
      "uses Nunjucks tags/filters Assay does not render ({{ question | upper }}, {{ user.name }}); they are left as written",
    );
    const tags = importPromptfoo({
      text: 'prompts: ["{% for d in docs %}{{ d }}{% endfor %} {{query}}"]\ntests:\n  - vars: {query: Where?, docs: [a]}\n',
    }).items[0]!;
    expect(tags.case!.initial_message).toBe("Where?");
    expect(tags.case!.user_context).toEqual({ vars: { docs: "a" } });
    expect(droppedOf(tags)["prompts[0]"]).toMatch(/^uses Nunjucks tags Assay does not render; vars.query is the message instead/);
  });

  it("without prompts, asks the one var or the var named like a question; else the test is an error", () => {
    const { items } = importPromptfoo({
      text: "tests:\n  - vars: {text: Hello}\n  - vars: {query: Why?, lang: en}\n  - vars: {a: 1, b: 2}\n",
    });
    expect(items[0]!.case).toMatchObject({ initial_message: "Hello", name: "Hello" });
    expect(items[0]!.report.mapped).toContain("vars.text → initial_message (the config has no prompt)");
    expect(items[1]!.case).toMatchObject({ initial_message: "Why?", user_context: { vars: { lang: "en" } } });
    expect(items[2]!.error).toBe("Nothing to ask the agent: no prompt renders a message for this test and no var holds a question");
  });

  it("reads a simulated-user test (from defaultTest's provider) as a persona case, the prompt being the agent's instructions", () => {
    const text = `prompts:
  - You are a helpful customer service agent for {{company}}.
providers:
  - openai:gpt-4o-mini
defaultTest:
  provider:
    id: promptfoo:simulated-user
    config:
      maxTurns: 6
tests:
  - description: Angry rider
    vars:
      company: Velo
      instructions: You are angry that your bike arrived broken. Demand a replacement.
  - vars: {company: Velo}
`;
    const { items, notes } = importPromptfoo({ text });
    expect(notes).toEqual(["Provider: openai:gpt-4o-mini — add it as a model configuration in Assay if your agent should run on it"]);
    expect(items[0]!.case).toEqual({
      name: "Angry rider",
      initial_message: null,
      persona: {
        type: "Simulated user",
        description: "A user who follows the instructions below",
        instructions: "You are angry that your bike arrived broken. Demand a replacement.",
      },
      max_turns: 6,
      user_context: { system_prompt: "You are a helpful customer service agent for Velo." },
    });
    expect(items[1]!.error).toMatch(/^A simulated-user test needs vars.instructions/);
    expectValidCases(items);
  });

  it("notes scenarios and reports a test's threshold, options and own provider", () => {
    const text = `prompts: ["{{q}}"]
scenarios:
  - config: [{vars: {lang: en}}]
    tests: [{vars: {q: hi}}]
tests:
  - vars: {q: hi}
    threshold: 0.5
    provider: openai:gpt-4o
    options:
      transform: output.trim()
      provider: openai:gpt-4o
      prefix: "Customer: "
`;
    const { items, notes } = importPromptfoo({ text });
    expect(notes).toEqual([
      "scenarios are not imported: they run the tests over sets of vars (a config × tests matrix); in Assay, make the values suite variables and start a matrix run",
    ]);
    expect(items[0]!.case!.initial_message).toBe("Customer: hi");
    expect(droppedOf(items[0]!)).toEqual({
      provider: "a provider for this test only; the suite's agent answers every case in Assay",
      threshold: "promptfoo passes the test when its weighted score reaches it; Assay's checks pass all or any",
      "options.transform": "transforms the answer before the assertions; Assay checks the agent's answer as it is",
      "options.provider": "the model that grades promptfoo's model-graded assertions; Assay grades with the suite's judge model",
    });
  });

  it("cuts a description longer than a name may be, keeps long metadata text uncut in user_context, and says so", () => {
    const long = "d".repeat(TEXT_LIMITS.name + 20);
    const note = "n".repeat(TEXT_LIMITS.tag);
    const item = importPromptfoo({
      text: `prompts: ["{{q}}"]\ntests:\n  - description: ${long}\n    vars: {q: hi}\n    metadata: {note: ${note}, area: "a, b"}\n`,
    }).items[0]!;
    expect(item.case!.name).toHaveLength(TEXT_LIMITS.name);
    expect(droppedOf(item).description).toBe(`cut to ${TEXT_LIMITS.name} characters (Assay's limit for names)`);
    expect(item.case!.user_context).toEqual({ metadata: { note, area: "a, b" } });
    expect(item.case!.tags).toBeUndefined();
    expectValidCases([item]);
  });

  it("makes a test whose prompt needs a var it lacks an error naming the var", () => {
    const { items } = importPromptfoo({ text: 'prompts: ["{{question}}"]\ntests:\n  - vars: {topic: refunds}\n' });
    expect(items[0]!.error).toBe("Nothing to ask the agent: the prompt needs {{question}}, which this test's vars do not have");
  });

  it("notes the parts of a config it does not read", () => {
    const { notes } = importPromptfoo({
      text: 'prompts: ["{{q}}"]\noutputPath: out.json\nsharing: false\nextra: 1\ntests:\n  - vars: {q: hi}\n',
    });
    expect(notes).toEqual([
      "sharing is a setting of promptfoo's runner; not imported",
      "outputPath is a setting of promptfoo's runner; not imported",
      "Not imported: extra (not part of a promptfoo config Assay reads)",
    ]);
  });

  it("refuses what is not a config", () => {
    expect(() => importPromptfoo({ text: "- just\n- a list\n" })).toThrow(ValidationError);
    expect(() => importPromptfoo({ text: "prompts: [\n" })).toThrow(/YAML document is invalid/);
  });
});

describe("exportPromptfoo", () => {
  const cases = [
    roundTripCase(),
    roundTripCase({
      name: "Any of two",
      mode: "any",
      checks: [
        { type: "contains_phrases", phrases: ["a"], case_sensitive: false },
        { type: "semantic_similarity", expected_answer: "b", threshold: 0.7 },
      ],
      expected_outcomes: { "Refund offered": true, "Blames the customer": false },
      evaluation_criteria_override: null,
      expected_tool_calls: null,
      files: null,
    }),
    roundTripCase({
      name: "Persona",
      persona: { type: "Angry customer", description: "Waited two weeks", instructions: "Demand a refund" },
      initial_message: "I want my money back",
      max_turns: 7,
      checks: [{ type: "llm_judge", expected_answer: "Sent on Monday", criteria: FACTUALITY_CRITERIA }],
      ground_truth: null,
      expected_outcomes: null,
      evaluation_criteria_override: null,
      expected_tool_calls: null,
      files: null,
    }),
    roundTripCase({
      name: "Angry, no opening message",
      persona: { type: "Angry customer", description: "Waited long", instructions: "Complain" },
      initial_message: null,
      max_turns: null,
      checks: [],
      expected_outcomes: null,
      evaluation_criteria_override: null,
      files: null,
    }),
    roundTripCase({
      name: "Draft",
      status: "draft",
      initial_message: null,
      checks: [],
      tags: [],
      evaluation_criteria_override: null,
      expected_tool_calls: null,
      files: null,
    }),
  ];
  const out = exportPromptfoo(cases, { suiteName: "Refunds" });

  it("writes a runnable config: a {{question}} prompt, a placeholder provider to point at the agent, one test per case", () => {
    const config = YAML.parse(out.text);
    expect(config.description).toBe("Refunds");
    expect(config.prompts).toEqual(["{{question}}"]);
    expect(config.providers).toEqual([{ id: "openai:chat:gpt-4o-mini", label: "your agent" }]);
    expect(out.text).toContain("# A placeholder: point this at your agent");
    const [full, anyOf, persona] = config.tests;
    expect(full.vars).toEqual({ question: "Where is my refund?", expected: "Refunds take 5 business days" });
    expect(full.assert).toEqual([
      { type: "icontains-all", value: ["refund", "days"] },
      { type: "similar", value: "Your refund arrives in 5 days", threshold: 0.8 },
      { type: "llm-rubric", value: "Mentions the number of days\n\nExpected answer: Refund in 5 days" },
      { type: "llm-rubric", value: `${SAME_INFORMATION}\n\nExpected answer: It was sent on Monday` },
      { type: "llm-rubric", value: "The agent explains when the refund arrives", metric: "outcome:Refund explained" },
    ]);
    expect(full.metadata.tags).toEqual(["billing", "edge-case"]);
    expect(anyOf.assert).toEqual([
      {
        type: "assert-set",
        threshold: 0.5,
        assert: [
          { type: "icontains", value: "a" },
          { type: "similar", value: "b", threshold: 0.7 },
        ],
      },
      { type: "llm-rubric", value: "Refund offered", metric: "outcome:Refund offered" },
      { type: "llm-rubric", value: "This must not happen: Blames the customer", metric: "outcome:Blames the customer" },
    ]);
    expect(persona.provider).toEqual({ id: "promptfoo:simulated-user", config: { maxTurns: 7 } });
    expect(persona.vars.instructions).toBe("Angry customer: Waited two weeks\n\nDemand a refund");
    expect(persona.assert).toEqual([{ type: "factuality", value: "Sent on Monday" }]);
    expect(config.tests[3].provider).toEqual({ id: "promptfoo:simulated-user" });
    expect(config.tests[3].vars).toEqual({
      expected: "Refunds take 5 business days",
      instructions: "Angry customer: Waited long\n\nComplain",
    });
  });

  it("names what promptfoo will not run, in not_exported and as comments at the top", () => {
    expect(out.text).toMatch(/^# Exported from Assay: suite "Refunds", 5 test cases\./);
    expect(out.not_exported).toEqual([
      {
        index: 0,
        name: "Full case",
        reason:
          "promptfoo does not check its expected tool calls (kept in metadata.assay for the way back); its 1 file cannot travel in this format; attach it again after importing; promptfoo grades each expected outcome as its own rubric, without the case's evaluation criteria override (kept in metadata.assay)",
      },
      {
        index: 2,
        name: "Persona",
        reason: "promptfoo's simulated user writes its own opening message; the case's is kept in vars.question",
      },
      {
        index: 3,
        name: "Angry, no opening message",
        reason: "promptfoo does not check its expected tool calls (kept in metadata.assay for the way back)",
      },
    ]);
    expect(out.text).toContain('# Not exported: "Full case": promptfoo does not check its expected tool calls');
    expect(out.text).toContain('# Not exported: "Persona": promptfoo\'s simulated user writes its own opening message');
    expect(out.text).toContain("# A case that passes when any one check passes is an assert-set with threshold 1/n");
  });

  it("imports back to the same cases: name, message, checks, mode, outcomes, persona, tags and the rest", () => {
    const back = importPromptfoo({ text: out.text });
    expect(back.notes).toEqual([
      "Provider: your agent (openai:chat:gpt-4o-mini) — add it as a model configuration in Assay if your agent should run on it",
      'The config\'s description ("Refunds") is not imported: it describes the whole suite',
    ]);
    expect(back.items.map((i) => i.error)).toEqual([null, null, null, null, null]);
    back.items.forEach((item, k) => {
      expect(testCaseInput.parse(item.case)).toEqual(testCaseInput.parse({ ...cases[k], files: null }));
    });
    expect(back.items[1]!.report.mapped).toContain("assert[0] assert-set → 2 checks with mode any (any one passes)");
  });
});
