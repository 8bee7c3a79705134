/**
 * promptfoo configs (`format=promptfoo`): a promptfooconfig.yaml (or .json), or a zip of it with
 * the files its `file://` references name (paths relative to the config; `..` and absolute paths
 * are refused). Each test becomes one case:
 * - `tests`: inline tests and/or `file://` references — YAML/JSON/JSONL lists, globs, CSV (columns
 *   are vars, except `__expected*` assertion shorthand, `__description`, `__metadata:<key>`,
 *   `__threshold`, `__metric`, `__prefix`, `__suffix`). A reference that cannot be read is a
 *   document note and an error item labelled with it. `defaultTest` (inline or `file://`) is
 *   merged into each test: vars (the test's win), assertions (the default's first), metadata,
 *   options.
 * - The message: the FIRST prompt rendered with the test's vars (`{{ var }}` substitution only;
 *   strings, `{raw, label}` / `{id, label}`, prompt files). A chat prompt (a JSON/YAML list of
 *   `{role, content}`) is rendered message by message: the last user message is asked, earlier
 *   turns go to `user_context.conversation_history`, a system message to
 *   `user_context.system_prompt`. Nunjucks tags, filters and member access are not rendered: they
 *   stay as written and are reported, except that a prompt with `{% tags %}` asks a var named
 *   question/query/input/prompt/message instead when there is one. Without prompts, the one var (or
 *   the var with such a name) is the message. `options.prefix` / `suffix` wrap it. Vars the prompt
 *   does not use → `user_context.vars`; `vars.expected` → `ground_truth`.
 * - A test run by promptfoo's simulated user (`provider: promptfoo:simulated-user`, possibly from
 *   defaultTest) is a persona case: `vars.instructions` → persona instructions, `config.maxTurns`
 *   → max_turns, the prompt (there the agent's instructions) → `user_context.system_prompt`.
 * - `description` → name (else the message's first line); metadata: `tags` (a list) → tags, a
 *   short text value → a `key=value` tag (promptfoo filters tests by `key=value`), the rest →
 *   `user_context.metadata`; `metadata.assay` (written by Assay's export) → the fields it holds.
 * - Assertions: ./promptfoo-assertions.ts. Test `threshold`, options and per-test providers are
 *   reported as not carried over; other prompts, the providers (possible model configurations),
 *   scenarios and runner settings are document notes. Reading the files: ./promptfoo-files.ts.
 * Export writes the mirror (./promptfoo-export.ts): a runnable config whose prompt is `{{question}}`.
 */
import { ValidationError } from "@/lib/errors";
import { MAX_SAFETY_CAP } from "@/lib/conversation/types";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { parseStructuredDocument } from "@/lib/test-cases/document";
import type { Conversion, ConvertedItem, DroppedField, ImportInput } from "./types";
import { mapAssertions, type SourceAssertion } from "./promptfoo-assertions";
import {
  readBundleFile,
  readDefaultTest,
  readPrompts,
  readTests,
  type Bundle,
  type FileRead,
  type Prompt,
  type RawTest,
} from "./promptfoo-files";
import {
  applyAssayBlock,
  asRecord,
  caseName,
  chatMessages,
  isNonEmptyString,
  lastUserQuestion,
  missingInput,
  snippet,
  startItem,
  toTags,
  type ChatMessage,
  type Json,
} from "./shared";

export const SIMULATED_USER = "promptfoo:simulated-user";
const QUESTION_VARS = ["question", "query", "input", "prompt", "message"];
const SOURCE = { type: "import" as const, format: "promptfoo" as const, item_id: null, trace_id: null };
const RUNNER_KEYS = [
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
  "tracing",
];
/** What the import reads from the config itself (`$schema` says only which schema an editor checks it with). */
const CONFIG_KEYS = ["$schema", "description", "prompts", "providers", "targets", "tests", "defaultTest", "scenarios"];
const TEST_KEYS = ["description", "vars", "assert", "metadata", "options", "threshold", "provider", "providerOutput"];
const OPTION_REASONS: Record<string, string> = {
  provider: "the model that grades promptfoo's model-graded assertions; Assay grades with the suite's judge model",
  transform: "transforms the answer before the assertions; Assay checks the agent's answer as it is",
  postprocess: "transforms the answer before the assertions; Assay checks the agent's answer as it is",
  rubricPrompt: "a custom grading prompt; Assay's judge uses its own",
  storeOutputAs: "stores the answer in a var for later tests; each Assay case runs on its own",
  runSerially: "Assay's runs decide their own order and concurrency",
  disableVarExpansion: "Assay imports one case per test and never expands list vars",
};

export function importPromptfoo(input: ImportInput): Conversion {
  const config = asRecord(parseStructuredDocument(input.text, undefined, "Expected a promptfoo config"));
  if (!config) {
    const message = "Expected a promptfoo config: an object with prompts, providers and tests";
    throw new ValidationError(message, [{ path: "", message }]);
  }
  const files = input.files;
  const notes: string[] = [];
  const prompts = readPrompts(config.prompts, files, notes);
  if (prompts.length > 1)
    notes.push(
      `Only the first prompt is rendered; not imported: ${prompts
        .slice(1)
        .map((p) => p.label)
        .join(", ")}`,
    );
  notes.push(...configNotes(config));
  const defaults = readDefaultTest(config.defaultTest, files, notes);
  const tests = readTests(config.tests, files, notes);
  const items = tests.map((t, index) => convertTest(t, index, { prompt: prompts[0] ?? null, defaults, files }));
  return { items, notes };
}

/** Notes on the config's other parts: providers, scenarios, its description, runner settings. */
function configNotes(config: Json): string[] {
  const notes: string[] = [];
  const providers = providerNames(config.providers ?? config.targets);
  if (providers.length > 1) {
    notes.push(
      `Providers: ${providers.join(", ")} — the tests were imported once; add the providers as model configurations to compare them in Assay`,
    );
  } else if (providers.length === 1) {
    notes.push(`Provider: ${providers[0]} — add it as a model configuration in Assay if your agent should run on it`);
  }
  if (config.scenarios !== undefined) {
    notes.push(
      "scenarios are not imported: they run the tests over sets of vars (a config × tests matrix); in Assay, make the values suite variables and start a matrix run",
    );
  }
  if (isNonEmptyString(config.description))
    notes.push(`The config's description ("${snippet(config.description, 100)}") is not imported: it describes the whole suite`);
  for (const key of RUNNER_KEYS) if (config[key] !== undefined) notes.push(`${key} is a setting of promptfoo's runner; not imported`);
  const unknown = Object.keys(config).filter((key) => !CONFIG_KEYS.includes(key) && !RUNNER_KEYS.includes(key));
  if (unknown.length > 0) notes.push(`Not imported: ${unknown.join(", ")} (not part of a promptfoo config Assay reads)`);
  return notes;
}

/** Provider names for the note: an id, `label (id)`, or the key of a `{id: config}` map. */
function providerNames(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  return list
    .map((p) => {
      if (typeof p === "string") return p;
      const r = asRecord(p);
      if (!r) return null;
      const id = isNonEmptyString(r.id) ? r.id : Object.keys(r).length === 1 ? Object.keys(r)[0]! : null;
      return isNonEmptyString(r.label) && id ? `${r.label} (${id})` : (id ?? (isNonEmptyString(r.label) ? r.label : null));
    })
    .filter(isNonEmptyString)
    .map((p) => snippet(p, 200));
}

/** Which vars a rendering used, and what it could not render. */
type Rendering = { used: Set<string>; unsupported: Set<string>; missing: Set<string> };
const rendering = (): Rendering => ({ used: new Set(), unsupported: new Set(), missing: new Set() });

function varText(v: unknown): string {
  return typeof v === "string" ? v : typeof v === "number" || typeof v === "boolean" ? String(v) : JSON.stringify(v);
}

/** Nunjucks-style rendering limited to `{{ name }}` (and `{# comments #}`); the rest stays as written, noted in `r`. */
function renderTemplate(template: string, vars: Json, r: Rendering): string {
  const text = template.replace(/\{#[\s\S]*?#\}/g, "");
  for (const m of text.matchAll(/\{%-?\s*(\w+)[\s\S]*?%\}/g)) r.unsupported.add(`{% ${m[1]} %}`);
  return text.replace(/\{\{-?\s*([\s\S]*?)\s*-?\}\}/g, (whole, expr: string) => {
    if (!/^[A-Za-z_$][\w$]*$/.test(expr)) {
      r.unsupported.add(whole);
      return whole;
    }
    if (!Object.hasOwn(vars, expr)) {
      r.missing.add(expr);
      return whole;
    }
    r.used.add(expr);
    return varText(vars[expr]);
  });
}

/** Whether a rendered text says nothing once the vars it lacked are taken out (a `{{question}}` prompt without the var). */
function isBlank(text: string, r: Rendering): boolean {
  let rest = text;
  for (const name of r.missing) rest = rest.replace(new RegExp(`\\{\\{-?\\s*${name.replace(/\$/g, "\\$")}\\s*-?\\}\\}`, "g"), "");
  return rest.trim() === "";
}

/** What a rendering could not do, reported against `field`. */
function reportRendering(r: Rendering, field: string, skipped: Set<string>, dropped: DroppedField[]) {
  if (r.unsupported.size > 0) {
    dropped.push({
      field,
      reason: `uses Nunjucks tags/filters Assay does not render (${[...r.unsupported].join(", ")}); they are left as written`,
    });
  }
  const missing = [...r.missing].filter((name) => !skipped.has(name));
  if (missing.length > 0) {
    dropped.push({ field, reason: `${missing.map((n) => `{{${n}}}`).join(", ")} has no value in this test's vars; left as written` });
  }
}

/** A chat prompt's messages (a JSON or YAML list of `{role, content}`), or null for a text prompt. */
function chatTemplate(text: string, dropped: DroppedField[]): ChatMessage[] | null {
  const trimmed = text.trim();
  let value: unknown = null;
  try {
    if (trimmed.startsWith("[")) value = JSON.parse(trimmed);
    else if (/^-\s+role\s*:/.test(trimmed)) value = parseStructuredDocument(trimmed, "yaml", "Empty prompt");
  } catch {
    return null;
  }
  return Array.isArray(value) ? chatMessages(value, "prompts[0]", (d) => dropped.push(d)) : null;
}

type TestContext = { prompt: Prompt | null; defaults: Json; files: Bundle };
type Report = { mapped: string[]; dropped: DroppedField[] };

function convertTest(raw: RawTest, index: number, ctx: TestContext): ConvertedItem {
  const test = raw.test;
  const label = isNonEmptyString(test?.description)
    ? snippet(test.description, 200)
    : raw.test
      ? `test ${index + 1} (${raw.origin})`
      : raw.origin;
  const report = startItem(index, label);
  if (raw.error || !test)
    return { report, case: null, error: raw.error ?? "A test must be an object with vars and assert", source: SOURCE };
  const { mapped, dropped } = report;
  const { defaults } = ctx;
  const readFile = (ref: string) => readBundleFile(ctx.files, ref);
  const { vars, skipped } = readVars(defaults.vars, test.vars, readFile, report);
  const testCase: Json = {};
  const userContext: Json = {};
  const promptUse = rendering();

  const provider = providerOf(test.provider) ?? providerOf(defaults.provider);
  if (provider?.id === SIMULATED_USER) {
    const error = simulatedUser(provider, vars, ctx.prompt, promptUse, testCase, userContext, report);
    if (error) return { report, case: null, error, source: SOURCE };
  } else {
    testCase.initial_message = wrap(askedMessage(ctx.prompt, vars, promptUse, userContext, report), test.options, defaults.options, mapped);
    // A prompt that rendered blank is no message: the error (or an Assay draft) says so, not a missing var.
    if (testCase.initial_message !== null) reportRendering(promptUse, "prompts[0]", skipped, dropped);
    if (test.provider !== undefined)
      dropped.push({ field: "provider", reason: "a provider for this test only; the suite's agent answers every case in Assay" });
    else if (defaults.provider !== undefined)
      dropped.push({ field: "defaultTest.provider", reason: "a provider for every test; the suite's agent answers every case in Assay" });
  }

  const assertUse = rendering();
  const result = mapAssertions(
    [...assertionList(defaults.assert, "defaultTest.assert", dropped), ...assertionList(test.assert, "assert", dropped)],
    {
      render: (text) => renderTemplate(text, vars, assertUse),
      readFile,
      mapped,
      dropped,
    },
  );
  reportRendering(assertUse, "assert", skipped, dropped);
  if (result.checks.length > 0) testCase.checks = result.checks;
  if (result.mode === "any") testCase.mode = "any";
  if (Object.keys(result.outcomes).length > 0) testCase.expected_outcomes = result.outcomes;
  if (isNonEmptyString(vars.expected)) {
    testCase.ground_truth = vars.expected;
    promptUse.used.add("expected");
    mapped.push("vars.expected → ground_truth");
  } else if (result.factualityReference) {
    testCase.ground_truth = result.factualityReference;
    mapped.push("factuality's reference answer → ground_truth");
  }

  const unused = Object.fromEntries(Object.entries(vars).filter(([k]) => !promptUse.used.has(k)));
  if (Object.keys(unused).length > 0) {
    userContext.vars = unused;
    mapped.push(`vars the prompt does not use (${Object.keys(unused).join(", ")}) → user_context.vars`);
  }
  const persona = testCase.persona as { instructions: string } | undefined;
  testCase.name = caseName(
    [test.description],
    (testCase.initial_message as string | null) ?? persona?.instructions ?? `Test ${index + 1}`,
    dropped,
    "description",
  );
  if (isNonEmptyString(test.description)) mapped.push("description → name");
  const block = readMetadata(defaults.metadata, test.metadata, testCase, userContext, report);
  if (Object.keys(userContext).length > 0) testCase.user_context = userContext;
  reportTestSettings(test, defaults, dropped);
  applyAssayBlock(testCase, block, "metadata.assay", mapped);
  const missing = missingInput(
    testCase,
    block,
    promptUse.missing.size > 0
      ? `Nothing to ask the agent: the prompt needs ${[...promptUse.missing].map((n) => `{{${n}}}`).join(", ")}, which this test's vars do not have`
      : "Nothing to ask the agent: no prompt renders a message for this test and no var holds a question",
  );
  if (missing) return { report, case: null, error: missing, source: SOURCE };
  return { report, case: testCase, error: null, source: SOURCE };
}

/** defaultTest's vars under the test's, with list vars cut to their first value and `file://` vars read from the zip. */
function readVars(defaults: unknown, own: unknown, readFile: (ref: string) => FileRead, { mapped, dropped }: Report) {
  const varsObject = (value: unknown, where: string): Json => {
    if (typeof value !== "string") return asRecord(value) ?? {};
    const file = readFile(value);
    const parsed = "text" in file ? asRecord(safeYaml(file.text)) : null;
    if (parsed) mapped.push(`${where} (${value}) → read from the zip`);
    else dropped.push({ field: where, reason: "error" in file ? file.error : `${value} is not a map of vars` });
    return parsed ?? {};
  };
  const vars: Json = { ...varsObject(defaults, "defaultTest.vars"), ...varsObject(own, "vars") };
  const skipped = new Set<string>();
  for (const [name, v] of Object.entries(vars)) {
    if (Array.isArray(v)) {
      vars[name] = v[0];
      dropped.push({
        field: `vars.${name}`,
        reason: `a list: promptfoo runs the test once per value; the first (${snippet(varText(v[0]), 60)}) is used`,
      });
    } else if (typeof v === "string" && v.startsWith("file://")) {
      const file = readFile(v);
      if ("text" in file) {
        vars[name] = file.text;
        mapped.push(`vars.${name} (${v}) → its text from the zip`);
      } else {
        delete vars[name];
        skipped.add(name);
        dropped.push({ field: `vars.${name}`, reason: `${file.error}; a file var needs its file` });
      }
    }
  }
  return { vars, skipped };
}

function safeYaml(text: string): unknown {
  try {
    return parseStructuredDocument(text, undefined, "Empty file");
  } catch {
    return null;
  }
}

function providerOf(value: unknown): Json | null {
  return typeof value === "string" ? { id: value } : asRecord(value);
}

/** The message a test asks: the first prompt rendered, else the one var that reads like a question. */
function askedMessage(prompt: Prompt | null, vars: Json, r: Rendering, userContext: Json, { mapped, dropped }: Report): string | null {
  const questionVar = QUESTION_VARS.find((n) => isNonEmptyString(vars[n]));
  if (!prompt) {
    const keys = Object.keys(vars);
    const key = keys.length === 1 ? keys[0]! : questionVar;
    if (key === undefined) return null;
    r.used.add(key);
    mapped.push(`vars.${key} → initial_message (the config has no prompt)`);
    return varText(vars[key]);
  }
  if (/\{%[\s\S]*?%\}/.test(prompt.text) && questionVar) {
    r.used.add(questionVar);
    mapped.push(`vars.${questionVar} → initial_message`);
    dropped.push({
      field: "prompts[0]",
      reason: `uses Nunjucks tags Assay does not render; vars.${questionVar} is the message instead, and the other vars are in user_context.vars`,
    });
    return vars[questionVar] as string;
  }
  const chat = chatTemplate(prompt.text, dropped);
  if (!chat) {
    const text = renderTemplate(prompt.text, vars, r);
    if (isBlank(text, r)) return null;
    mapped.push("prompts[0] rendered with the test's vars → initial_message");
    return text;
  }
  const rendered = chat.map((m) => ({ role: m.role, content: renderTemplate(m.content, vars, r) }));
  const asked = lastUserQuestion(rendered, "prompts[0]", mapped, dropped);
  if (asked) Object.assign(userContext, asked.context);
  return asked?.question ?? null;
}

/** `options.prefix` / `suffix` (the test's over defaultTest's) around the message, as promptfoo sends it. */
function wrap(message: string | null, own: unknown, defaults: unknown, mapped: string[]): string | null {
  const options = { ...(asRecord(defaults) ?? {}), ...(asRecord(own) ?? {}) };
  const prefix = typeof options.prefix === "string" ? options.prefix : "";
  const suffix = typeof options.suffix === "string" ? options.suffix : "";
  if (message === null || (!prefix && !suffix)) return message;
  mapped.push("options.prefix / options.suffix → around initial_message");
  return `${prefix}${message}${suffix}`;
}

/** promptfoo's simulated user → a persona case; returns why it cannot be one, or null. */
function simulatedUser(
  provider: Json,
  vars: Json,
  prompt: Prompt | null,
  r: Rendering,
  testCase: Json,
  userContext: Json,
  { mapped, dropped }: Report,
) {
  if (!isNonEmptyString(vars.instructions)) {
    return "A simulated-user test needs vars.instructions: what the simulated user wants and how they behave";
  }
  r.used.add("instructions");
  testCase.persona = { type: "Simulated user", description: "A user who follows the instructions below", instructions: vars.instructions };
  mapped.push(`provider ${SIMULATED_USER} with vars.instructions → persona`);
  const config = asRecord(provider.config) ?? {};
  const maxTurns = config.maxTurns;
  for (const key of Object.keys(config).filter((k) => k !== "maxTurns")) {
    dropped.push({
      field: `provider.config.${key}`,
      reason: "a setting of promptfoo's simulated user; Assay's simulated user runs on the suite's model",
    });
  }
  if (typeof maxTurns === "number" && Number.isInteger(maxTurns) && maxTurns >= 1) {
    testCase.max_turns = Math.min(maxTurns, MAX_SAFETY_CAP);
    mapped.push("provider.config.maxTurns → max_turns");
    if (maxTurns > MAX_SAFETY_CAP)
      dropped.push({ field: "provider.config.maxTurns", reason: `cut to ${MAX_SAFETY_CAP}, Assay's highest turn cap` });
  } else if (maxTurns !== undefined) dropped.push({ field: "provider.config.maxTurns", reason: "not a whole number of turns" });
  // promptfoo's simulated user writes its own opening message; an Assay export keeps the case's in vars.question.
  const question = isNonEmptyString(vars.question) ? vars.question : null;
  if (question) {
    r.used.add("question");
    mapped.push("vars.question → initial_message");
  }
  testCase.initial_message = question;
  if (!prompt) return null;
  const own = rendering();
  const system = renderTemplate(prompt.text, vars, own);
  if (isBlank(system, own) || system === question) return null;
  own.used.forEach((name) => r.used.add(name));
  userContext.system_prompt = system;
  mapped.push(
    "prompts[0] (the agent's instructions in a simulated-user test) → user_context.system_prompt (for reference: the suite's agent has its own)",
  );
  reportRendering(own, "prompts[0]", new Set(), dropped);
  return null;
}

function assertionList(value: unknown, where: string, dropped: DroppedField[]): SourceAssertion[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    dropped.push({ field: where, reason: "not a list of assertions" });
    return [];
  }
  return value.map((a, k) => ({ where: `${where}[${k}]`, value: a }));
}

/** Metadata (the test's over defaultTest's) → tags and user_context.metadata; returns the `assay` round-trip block. */
function readMetadata(defaults: unknown, own: unknown, testCase: Json, userContext: Json, { mapped, dropped }: Report): Json | null {
  const metadata: Json = { ...(asRecord(defaults) ?? {}), ...(asRecord(own) ?? {}) };
  const candidates: unknown[] = [];
  if (Array.isArray(metadata.tags)) {
    candidates.push(...metadata.tags);
    mapped.push("metadata.tags → tags");
  }
  const tagged: string[] = [];
  const rest: Json = {};
  for (const [key, v] of Object.entries(metadata)) {
    if (key === "assay" || (key === "tags" && Array.isArray(v))) continue;
    const tag = `${key}=${String(v)}`;
    // Only what fits a tag whole: a longer text or one with a comma stays in user_context, uncut.
    if (typeof v === "string" && v.trim() !== "" && tag.length <= TEXT_LIMITS.tag && !/[,\n]/.test(tag)) {
      candidates.push(tag);
      tagged.push(key);
    } else rest[key] = v;
  }
  if (tagged.length > 0) mapped.push(`metadata (${tagged.join(", ")}) → tags key=value`);
  const tags = toTags(candidates, dropped, "metadata.tags");
  if (tags.length > 0) testCase.tags = tags;
  if (Object.keys(rest).length > 0) {
    userContext.metadata = rest;
    mapped.push(`metadata (${Object.keys(rest).join(", ")}) → user_context.metadata`);
  }
  return asRecord(metadata.assay);
}

/** A test's threshold, options and unknown fields: reported, each with why. */
function reportTestSettings(test: Json, defaults: Json, dropped: DroppedField[]) {
  for (const [where, source] of [
    ["defaultTest.", defaults],
    ["", test],
  ] as const) {
    if (source.threshold !== undefined) {
      dropped.push({
        field: `${where}threshold`,
        reason: "promptfoo passes the test when its weighted score reaches it; Assay's checks pass all or any",
      });
    }
    for (const key of Object.keys(asRecord(source.options) ?? {})) {
      if (key === "prefix" || key === "suffix") continue;
      dropped.push({ field: `${where}options.${key}`, reason: OPTION_REASONS[key] ?? `promptfoo's ${key} option has no Assay equivalent` });
    }
  }
  if (test.providerOutput !== undefined)
    dropped.push({ field: "providerOutput", reason: "a recorded answer; Assay asks the agent on every run" });
  for (const key of Object.keys(test))
    if (!TEST_KEYS.includes(key)) dropped.push({ field: key, reason: "not a field of a promptfoo test" });
}
