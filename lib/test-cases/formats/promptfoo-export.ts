/**
 * promptfoo export (`format=promptfoo`): a runnable promptfooconfig.yaml whose prompt is
 * `{{question}}`, each case a test with its checks as assertions (./promptfoo-assertions.ts) and
 * what promptfoo cannot express in `metadata.assay`, so ./promptfoo.ts reads it back whole.
 */
import YAML from "yaml";
import type { ExportOutput, TestCaseDocument } from "./types";
import { FACTUALITY_CRITERIA, toAssertions } from "./promptfoo-assertions";
import { SIMULATED_USER } from "./promptfoo";
import { assayBlock, filesNote, type Json } from "./shared";

/** The fields each exported test holds natively; the rest travel in `metadata.assay`. */
const NATIVE = ["tags", "initial_message", "ground_truth", "checks"] as const;

export function exportPromptfoo(cases: TestCaseDocument[], opts: { suiteName: string }): ExportOutput {
  const not_exported: ExportOutput["not_exported"] = [];
  let anyOfSets = false;
  const tests = cases.map((c, index) => {
    const { test, reasons, anyOfSet } = exportTest(c);
    anyOfSets ||= anyOfSet;
    if (reasons.length > 0) not_exported.push({ index, name: c.name, reason: reasons.join("; ") });
    return test;
  });
  const doc = new YAML.Document(
    {
      description: opts.suiteName,
      prompts: ["{{question}}"],
      providers: [{ id: "openai:chat:gpt-4o-mini", label: "your agent" }],
      tests,
    },
    { aliasDuplicateObjects: false },
  );
  const providers = doc.getIn(["providers", 0], true) as YAML.Node;
  providers.commentBefore =
    " A placeholder: point this at your agent, e.g. an http provider with its URL (https://www.promptfoo.dev/docs/providers/http/)";
  doc.commentBefore = [
    ` Exported from Assay: suite "${opts.suiteName.replace(/\n/g, " ")}", ${cases.length} test case${cases.length === 1 ? "" : "s"}.`,
    " Point `providers` at your agent, then run: npx promptfoo eval -c promptfooconfig.yaml",
    " Persona cases run with promptfoo:simulated-user, which plays vars.instructions against your agent.",
    ...(anyOfSets
      ? [
          " A case that passes when any one check passes is an assert-set with threshold 1/n; promptfoo averages the",
          " scores, so a near miss of a graded assertion (similar, llm-rubric) counts toward it.",
        ]
      : []),
    ...not_exported.map((n) => ` Not exported: "${n.name.replace(/\n/g, " ")}": ${n.reason}`),
  ].join("\n");
  return { text: doc.toString({ lineWidth: 0 }), not_exported };
}

/** One case → a promptfoo test, what of it promptfoo will not run, and whether it needed an "any of" set. */
function exportTest(c: TestCaseDocument) {
  const vars: Json = {};
  if (c.initial_message) vars.question = c.initial_message;
  if (c.ground_truth) vars.expected = c.ground_truth;
  const { assert, anyOfSet } = toAssertions(c.checks, c.mode, c.expected_outcomes);
  const block = assayBlock(c as unknown as Json);
  for (const key of NATIVE) delete block[key];
  // Kept in the block only where promptfoo's own form does not say it exactly.
  if (c.mode === "any" && c.checks.length > 1) delete block.mode;
  if (c.expected_outcomes && Object.values(c.expected_outcomes).every((v) => typeof v === "string")) delete block.expected_outcomes;
  if (c.persona && c.max_turns) delete block.max_turns;
  // The import takes factuality's reference as the ground truth when there is none: say there is none.
  if (!c.ground_truth && c.checks.some((k) => k.type === "llm_judge" && k.criteria === FACTUALITY_CRITERIA)) block.ground_truth = null;
  const test: Json = { description: c.name, vars };
  if (c.persona) {
    vars.instructions = `${c.persona.type}: ${c.persona.description}\n\n${c.persona.instructions}`;
    test.provider = { id: SIMULATED_USER, ...(c.max_turns ? { config: { maxTurns: c.max_turns } } : {}) };
  }
  if (assert.length > 0) test.assert = assert;
  const metadata: Json = {};
  if (c.tags.length > 0) metadata.tags = c.tags;
  if (Object.keys(block).length > 0) metadata.assay = block;
  if (Object.keys(metadata).length > 0) test.metadata = metadata;
  const files = filesNote(c);
  const reasons = [
    ...(c.expected_tool_calls ? ["promptfoo does not check its expected tool calls (kept in metadata.assay for the way back)"] : []),
    ...(files ? [files] : []),
    ...(c.persona && c.initial_message
      ? ["promptfoo's simulated user writes its own opening message; the case's is kept in vars.question"]
      : []),
    ...(c.evaluation_criteria_override && c.expected_outcomes
      ? [
          "promptfoo grades each expected outcome as its own rubric, without the case's evaluation criteria override (kept in metadata.assay)",
        ]
      : []),
  ];
  return { test, reasons, anyOfSet };
}
