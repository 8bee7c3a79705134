/**
 * promptfoo configs (`format=promptfoo`): a promptfooconfig.yaml (or .json), or a zip of it with
 * the files its `file://` references name. Each test becomes one case:
 * - `defaultTest` is merged into it (vars: the test's win; assertions: the default's first;
 *   metadata), and `tests` may list tests inline, or name files (`file://tests.yaml`, `.json`,
 *   `.jsonl`, `.csv` with `__expected`/`__description`/`__metadata:` columns, globs) in the bundle.
 * - The first prompt is rendered with the test's vars (`{{var}}`, Nunjucks-style substitution)
 *   into `initial_message`; a chat prompt (a list of `{role, content}`) gives its last user
 *   message, its system message going to `user_context.system_prompt`. A prompt that needs more
 *   than substitution (`{% tags %}`, filters, member access) is reported. Vars the prompt does not
 *   use go to `user_context.vars`; a var named `expected` is the case's ground truth.
 * - `description` → name; `metadata.tags` → tags, other string metadata → `key:value` tags, the
 *   rest → `user_context.metadata`; `metadata.assay` (written by Assay's export) → the fields it holds.
 * - A test run by promptfoo's simulated user (`provider: promptfoo:simulated-user`) becomes a
 *   persona case: `vars.instructions` → persona instructions, `config.maxTurns` → max_turns.
 * - Assertions: ./promptfoo-assertions.ts. Other prompts, providers (possible model
 *   configurations in Assay), scenarios and options are named in the report's notes.
 * Export writes the mirror: a runnable config whose prompt is `{{question}}`.
 */
import Papa from "papaparse";
import YAML from "yaml";
import { ValidationError } from "@/lib/errors";
import { parseStructuredDocument } from "@/lib/test-cases/document";
import type { Conversion, ConvertedItem, DroppedField, ExportOutput, ImportInput, TestCaseDocument } from "./types";
import { mapAssertions, toAssertions } from "./promptfoo-assertions";
import { applyAssayBlock, asRecord, assayBlock, asText, caseName, chatMessages, isNonEmptyString, toTags, type Json } from "./shared";

const SIMULATED_USER = "promptfoo:simulated-user";
const QUESTION_VARS = ["question", "query", "input", "prompt", "message"];
const SOURCE = { type: "import" as const, format: "promptfoo" as const, item_id: null, trace_id: null };
const NOT_USED_KEYS = [
  "evaluateOptions",
  "commandLineOptions",
  "sharing",
  "outputPath",
  "env",
  "nunjucksFilters",
  "derivedMetrics",
  "extensions",
  "redteam",
  "writeLatestResults",
];

type Prompt = { text: string; label: string };
type Bundle = ReadonlyMap<string, Uint8Array> | undefined;

export function importPromptfoo(input: ImportInput): Conversion {
  const config = asRecord(parseStructuredDocument(input.text, undefined, "Expected a promptfoo config"));
  if (!config) {
    const message = "Expected a promptfoo config: an object with prompts, providers and tests";
    throw new ValidationError(message, [{ path: "", message }]);
  }
  const notes: string[] = [];
  const files = input.files;
  const prompts = readPrompts(config.prompts, files, notes);
  if (prompts.length > 1)
    notes.push(
      `Only the first prompt is rendered; not imported: ${prompts
        .slice(1)
        .map((p) => p.label)
        .join(", ")}`,
    );
  const providers = providerNames(config.providers);
  if (providers.length > 0) {
    notes.push(
      `Providers: ${providers.join(", ")} — possible model configurations: add them in Assay to run or compare the suite's agent on each`,
    );
  }
  if (config.scenarios !== undefined) notes.push("scenarios are not imported: use a matrix run to run the cases over sets of values");
  for (const key of NOT_USED_KEYS) if (config[key] !== undefined) notes.push(`${key} is a setting of promptfoo's runner; not imported`);
  const defaults = readDefaultTest(config.defaultTest, notes);
  const tests = readTests(config.tests, files, notes);
  const items = tests.map((t, index) => promptfooTest(t, index, { prompt: prompts[0] ?? null, defaults }));
  return { items, notes };
}

function bundleText(files: Bundle, path: string): string | null {
  const bytes = files?.get(path.replace(/^\.\//, ""));
  return bytes ? new TextDecoder().decode(bytes).replace(/^\uFEFF/, "") : null;
}

/** A `file://` path inside the bundle (relative, no `..`), or the reason it cannot be. */
function bundlePathOf(ref: string): { path: string } | { error: string } {
  const path = ref.replace(/^file:\/\//, "").replace(/^\.\//, "");
  if (path.startsWith("/") || /(^|\/)\.\.(\/|$)/.test(path)) return { error: `${ref}: only paths inside the uploaded bundle can be read` };
  return { path };
}

function readPrompts(value: unknown, files: Bundle, notes: string[]): Prompt[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  const prompts: Prompt[] = [];
  for (const raw of list) {
    const r = asRecord(raw);
    const text = typeof raw === "string" ? raw : isNonEmptyString(r?.raw) ? r.raw : isNonEmptyString(r?.id) ? r.id : null;
    const label = isNonEmptyString(r?.label) ? r.label : (text ?? "").slice(0, 60);
    if (!text) {
      notes.push("A prompt without text was skipped");
      continue;
    }
    if (!text.startsWith("file://")) {
      prompts.push({ text, label });
      continue;
    }
    const at = bundlePathOf(text);
    const content = "path" in at ? bundleText(files, at.path) : null;
    if (content === null)
      notes.push("path" in at ? `${text} is not in the upload (zip the config with its prompt files to import it)` : at.error);
    else prompts.push({ text: content, label: isNonEmptyString(r?.label) ? r.label : text });
  }
  return prompts;
}

function providerNames(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  return list
    .map((p) => (typeof p === "string" ? p : (asRecord(p)?.label ?? asRecord(p)?.id)))
    .filter(isNonEmptyString)
    .map((p) => p.slice(0, 200));
}

function readDefaultTest(value: unknown, notes: string[]): Json {
  if (typeof value === "string") {
    notes.push(`defaultTest ${value} is a file reference; its defaults were not applied`);
    return {};
  }
  return asRecord(value) ?? {};
}

/** A test as read, with where it came from for its label. */
type RawTest = { test: Json | null; origin: string; error?: string };

function readTests(value: unknown, files: Bundle, notes: string[]): RawTest[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  if (list.length === 0) notes.push("The config has no tests");
  const out: RawTest[] = [];
  list.forEach((entry, k) => {
    if (typeof entry !== "string") {
      out.push({ test: asRecord(entry), origin: `tests[${k}]`, ...(asRecord(entry) ? {} : { error: "A test must be an object" }) });
      return;
    }
    const at = bundlePathOf(entry);
    if ("error" in at) return out.push({ test: null, origin: entry, error: at.error });
    const paths = matchBundle(files, at.path);
    if (paths.length === 0) {
      out.push({
        test: null,
        origin: entry,
        error: `${entry} is not in the upload: zip the config with the files it references and import the zip`,
      });
      return;
    }
    for (const path of paths) {
      try {
        testsInFile(path, bundleText(files, path)!).forEach((t, j) => out.push({ test: t, origin: `${path}[${j}]` }));
      } catch (err) {
        out.push({ test: null, origin: path, error: `${path} could not be read: ${(err as Error).message}` });
      }
    }
  });
  return out;
}

/** Bundle paths a `file://` path or glob (`*`, `**`) names, in order. */
function matchBundle(files: Bundle, pattern: string): string[] {
  if (!files) return [];
  if (!/[*?]/.test(pattern)) return files.has(pattern) ? [pattern] : [];
  const source = pattern
    .split(/(\*\*\/|\*\*|\*|\?)/)
    .map((part) =>
      part === "**/"
        ? "(?:.*/)?"
        : part === "**"
          ? ".*"
          : part === "*"
            ? "[^/]*"
            : part === "?"
              ? "[^/]"
              : part.replace(/[.+^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");
  const re = new RegExp(`^${source}$`);
  return [...files.keys()].filter((p) => re.test(p)).sort();
}

function testsInFile(path: string, text: string): Json[] {
  if (/\.csv$/i.test(path)) return csvTests(text);
  if (/\.jsonl$/i.test(path)) {
    return text
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => asRecord(JSON.parse(l)) ?? {});
  }
  const value = parseStructuredDocument(text, /\.json$/i.test(path) ? "json" : "yaml", "Expected a list of tests");
  const list = Array.isArray(value)
    ? value
    : asRecord(value) && Array.isArray(asRecord(value)!.tests)
      ? (asRecord(value)!.tests as unknown[])
      : [value];
  return list.map((t) => asRecord(t) ?? {});
}

/** promptfoo's CSV tests: each column a var, except `__expected*` (assertion shorthand), `__description`, `__metadata:<key>`. */
function csvTests(text: string): Json[] {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  return parsed.data.map((row) => {
    const vars: Json = {};
    const assert: Json[] = [];
    const metadata: Json = {};
    let description: string | undefined;
    for (const [column, value] of Object.entries(row)) {
      if (value === undefined || value === "") continue;
      if (/^__expected\d*$/.test(column)) assert.push(shorthandAssertion(value));
      else if (column === "__description") description = value;
      else if (column.startsWith("__metadata:")) metadata[column.slice("__metadata:".length)] = value;
      else vars[column] = value;
    }
    return { vars, assert, ...(description ? { description } : {}), ...(Object.keys(metadata).length ? { metadata } : {}) };
  });
}

/** `contains: foo`, `similar(0.8): foo`, `llm-rubric: …`, a bare value meaning `equals`. */
function shorthandAssertion(value: string): Json {
  const m = /^(not-)?([a-z-]+)(?:\(([\d.]+)\))?\s*:\s*([\s\S]*)$/.exec(value);
  if (!m) return { type: "equals", value };
  const assertion: Json = { type: `${m[1] ?? ""}${m[2]}`, value: m[4] };
  if (m[3]) assertion.threshold = Number(m[3]);
  if (m[2] === "contains-any" || m[2] === "icontains-any" || m[2] === "contains-all" || m[2] === "icontains-all") {
    assertion.value = m[4]!
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  }
  return assertion;
}

/** Nunjucks-style rendering limited to `{{ name }}`; anything more is named in `unsupported`. */
function renderTemplate(template: string, vars: Json, used: Set<string>, unsupported: Set<string>): string {
  if (/\{%[\s\S]*?%\}/.test(template)) unsupported.add("{% tags %}");
  return template.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (whole, expr: string) => {
    const name = /^[A-Za-z_$][\w$]*$/.test(expr) ? expr : null;
    if (!name) {
      unsupported.add(expr.includes("|") ? `the filter in ${whole}` : `${whole}`);
      const base = /^([A-Za-z_$][\w$]*)/.exec(expr)?.[1];
      if (base && base in vars) used.add(base);
      return whole;
    }
    if (!(name in vars)) return whole;
    used.add(name);
    const v = vars[name];
    return typeof v === "string" ? v : asText(v);
  });
}

type TestContext = { prompt: Prompt | null; defaults: Json };

function promptfooTest(raw: RawTest, index: number, ctx: TestContext): ConvertedItem {
  const test = raw.test ?? {};
  const label = isNonEmptyString(test.description) ? test.description : `test ${index + 1} (${raw.origin})`;
  const report = { index, label, mapped: [] as string[], dropped: [] as DroppedField[] };
  if (raw.error || !raw.test) return { report, case: null, error: raw.error ?? "A test must be an object", source: SOURCE };
  const { mapped, dropped } = report;
  const defaults = ctx.defaults;
  const vars: Json = { ...(asRecord(defaults.vars) ?? {}), ...(asRecord(test.vars) ?? {}) };
  for (const [name, v] of Object.entries(vars)) {
    if (Array.isArray(v)) {
      vars[name] = v[0];
      dropped.push({ field: `vars.${name}`, reason: `a list: promptfoo runs one test per value; the first (${asText(v[0])}) is used` });
    } else if (typeof v === "string" && v.startsWith("file://")) {
      dropped.push({ field: `vars.${name}`, reason: `${v}: a file var; its file is not read (paste its text into the case)` });
    }
  }
  const used = new Set<string>();
  const unsupported = new Set<string>();
  const render = (text: string) => renderTemplate(text, vars, used, unsupported);
  const testCase: Json = {};
  const userContext: Json = {};

  // The message: the first prompt rendered, else the one var that reads like a question.
  let message: string | null = null;
  if (ctx.prompt) {
    const rendered = render(ctx.prompt.text);
    const chat = /^\s*\[/.test(rendered) ? chatMessages(safeParse(rendered), "prompt", (d) => dropped.push(d)) : null;
    if (chat) {
      const lastUser = chat.map((m) => m.role).lastIndexOf("user");
      message = lastUser >= 0 ? chat[lastUser]!.content : null;
      const system = chat.filter((m) => m.role === "system").map((m) => m.content);
      if (system.length > 0) userContext.system_prompt = system.join("\n\n");
      mapped.push(
        `prompt (chat) rendered with vars → initial_message${system.length ? ", its system message → user_context.system_prompt" : ""}`,
      );
    } else {
      message = rendered;
      mapped.push("prompts[0] rendered with the vars → initial_message");
    }
  } else {
    const named = QUESTION_VARS.find((n) => typeof vars[n] === "string");
    const only = Object.keys(vars).length === 1 ? Object.keys(vars)[0] : undefined;
    const key = named ?? only;
    if (key !== undefined) {
      message = asText(vars[key]);
      used.add(key);
      mapped.push(`vars.${key} → initial_message (the config has no prompt)`);
    }
  }
  if (unsupported.size > 0) {
    dropped.push({
      field: "prompt",
      reason: `uses Nunjucks features Assay does not render (${[...unsupported].join(", ")}); left as written`,
    });
  }

  // Who asks: promptfoo's simulated user makes a persona case.
  const provider = asRecord(test.provider) ?? (typeof test.provider === "string" ? { id: test.provider } : asRecord(defaults.provider));
  const simulated = provider?.id === SIMULATED_USER;
  if (simulated) {
    const config = asRecord(provider.config) ?? {};
    const instructions = isNonEmptyString(vars.instructions) ? vars.instructions : null;
    if (!instructions) return { report, case: null, error: "A simulated-user test needs vars.instructions", source: SOURCE };
    used.add("instructions");
    const metadata = asRecord(test.metadata) ?? {};
    testCase.persona = {
      type: isNonEmptyString(metadata.persona_type) ? metadata.persona_type : "Simulated user",
      description: isNonEmptyString(metadata.persona_description) ? metadata.persona_description : "A user with the instructions below",
      instructions,
    };
    mapped.push("provider promptfoo:simulated-user with vars.instructions → persona");
    if (typeof config.maxTurns === "number" && Number.isInteger(config.maxTurns) && config.maxTurns >= 1) {
      testCase.max_turns = config.maxTurns;
      mapped.push("provider.config.maxTurns → max_turns");
    }
    // The simulated user writes its own first message unless the test gives one.
    message = isNonEmptyString(vars.question) ? (used.add("question"), vars.question) : null;
  } else if (test.provider !== undefined) {
    dropped.push({ field: "provider", reason: "a per-test provider; the suite's agent answers every case" });
  }
  testCase.initial_message = message;

  // Checks from the default assertions and the test's.
  const asserts = [...(Array.isArray(defaults.assert) ? defaults.assert : []), ...(Array.isArray(test.assert) ? test.assert : [])];
  const result = mapAssertions(asserts, render, mapped, dropped);
  if (result.checks.length > 0) testCase.checks = result.checks;
  if (result.mode === "any") testCase.mode = "any";
  if (Object.keys(result.outcomes).length > 0) testCase.expected_outcomes = result.outcomes;
  const expected = typeof vars.expected === "string" && !used.has("expected") ? vars.expected : null;
  if (expected) {
    used.add("expected");
    mapped.push("vars.expected → ground_truth");
  }
  testCase.ground_truth = expected ?? result.ground_truth;

  const unused = Object.fromEntries(Object.entries(vars).filter(([k]) => !used.has(k)));
  if (Object.keys(unused).length > 0) {
    userContext.vars = unused;
    mapped.push(`vars not in the prompt (${Object.keys(unused).join(", ")}) → user_context.vars`);
  }

  // Name, tags and metadata.
  testCase.name = caseName(
    [test.description],
    message ?? (testCase.persona as { instructions?: string } | undefined)?.instructions ?? `Test ${index + 1}`,
    dropped,
    "description",
  );
  if (isNonEmptyString(test.description)) mapped.push("description → name");
  const metadata = { ...(asRecord(defaults.metadata) ?? {}), ...(asRecord(test.metadata) ?? {}) };
  const tags = Array.isArray(metadata.tags) ? toTags(metadata.tags) : [];
  const otherMeta: Json = {};
  for (const [key, v] of Object.entries(metadata)) {
    if (["tags", "assay", "persona_type", "persona_description"].includes(key)) continue;
    if (typeof v === "string") tags.push(...toTags([`${key}:${v}`]));
    else otherMeta[key] = v;
  }
  if (tags.length > 0) {
    testCase.tags = [...new Set(tags)];
    mapped.push("metadata → tags");
  }
  if (Object.keys(otherMeta).length > 0) {
    userContext.metadata = otherMeta;
    mapped.push("metadata (not text) → user_context.metadata");
  }
  if (Object.keys(userContext).length > 0) testCase.user_context = userContext;
  for (const key of ["threshold", "options"]) {
    if (test[key] !== undefined)
      dropped.push({
        field: key,
        reason:
          key === "threshold"
            ? "Assay's checks pass all or any, not by score"
            : "promptfoo's per-test options (transforms, grading provider) have no Assay equivalent",
      });
  }
  applyAssayBlock(testCase, asRecord(metadata.assay), "metadata.assay", mapped);
  if (!testCase.initial_message && !testCase.persona) {
    return {
      report,
      case: null,
      error: "Nothing to ask the agent: no prompt renders for this test and no var holds a question",
      source: SOURCE,
    };
  }
  return { report, case: testCase, error: null, source: SOURCE };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    try {
      return YAML.parse(text);
    } catch {
      return null;
    }
  }
}

/** The fields promptfoo has a place for; the rest travel in `metadata.assay`. */
const NATIVE = ["checks", "mode", "expected_outcomes", "initial_message", "tags", "ground_truth", "persona", "max_turns"];

export function exportPromptfoo(cases: TestCaseDocument[], opts: { suiteName: string }): ExportOutput {
  const not_exported: ExportOutput["not_exported"] = [];
  const tests = cases.map((c, index) => {
    const vars: Json = {};
    if (c.initial_message) vars.question = c.initial_message;
    if (c.ground_truth) vars.expected = c.ground_truth;
    const block = assayBlock(c as unknown as Json);
    for (const key of NATIVE) delete block[key];
    // One check in mode any is the same test; keep the mode for the way back.
    if (c.mode === "any" && c.checks.length <= 1) block.mode = "any";
    const metadata: Json = {};
    if (c.tags.length > 0) metadata.tags = c.tags;
    if (Object.keys(block).length > 0) metadata.assay = block;
    const test: Json = { description: c.name, vars, assert: toAssertions(c.checks, c.mode, c.expected_outcomes) };
    if (c.persona) {
      vars.instructions = c.persona.instructions;
      metadata.persona_type = c.persona.type;
      metadata.persona_description = c.persona.description;
      test.provider = { id: SIMULATED_USER, config: { maxTurns: c.max_turns ?? 10 } };
    }
    if (Object.keys(metadata).length > 0) test.metadata = metadata;
    const reasons = [
      ...(c.expected_tool_calls ? ["its expected tool calls are not checked by promptfoo (kept in metadata.assay for the way back)"] : []),
      ...(c.files && c.files.length > 0 ? [`its ${c.files.length} file(s) cannot travel in a promptfoo config`] : []),
    ];
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
  const header = [
    ` Exported from Assay: suite "${opts.suiteName}", ${cases.length} test case${cases.length === 1 ? "" : "s"}.`,
    " Point `providers` at your agent, then run: npx promptfoo eval -c promptfooconfig.yaml",
    " Simulated-user cases use promptfoo:simulated-user, which plays vars.instructions against your agent.",
    ...not_exported.map((n) => ` Not exported in full: "${n.name.replace(/\n/g, " ")}": ${n.reason}`),
  ];
  doc.commentBefore = header.join("\n");
  return { text: doc.toString({ lineWidth: 0 }), not_exported };
}
