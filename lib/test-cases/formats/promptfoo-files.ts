/**
 * What a promptfoo config points at, read from the zip it came in (`input.files`, paths relative
 * to the config): `file://` references (globs included; `..` and absolute paths refused), the
 * prompts (inline, `{raw|id, label}`, prompt files), a `defaultTest` file, and the tests (inline,
 * YAML/JSON/JSONL lists, CSV). A reference that cannot be read becomes a note and, for tests, an
 * error item labelled with it: the rest of the config still imports. ./promptfoo.ts converts.
 */
import Papa from "papaparse";
import { parseStructuredDocument } from "@/lib/test-cases/document";
import { parseShorthand } from "./promptfoo-assertions";
import { asRecord, isNonEmptyString, snippet, type Json } from "./shared";

/** Extensions of prompt files that are functions (code), which Assay cannot render. */
const CODE_FILE = /\.(js|cjs|mjs|ts|py)(:[\w.]+)?$/i;

export type Bundle = ReadonlyMap<string, Uint8Array> | undefined;
export type FileRead = { text: string } | { error: string };
export type Prompt = { text: string; label: string };
/** A test as read, where it came from (for its label), or why it could not be read. */
export type RawTest = { test: Json | null; origin: string; error?: string };

function decodeText(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).replace(/^\uFEFF/, "");
}

/** A `file://` path inside the zip (relative, no `..`), or why it cannot be one. */
function bundlePath(ref: string): { path: string } | { error: string } {
  const path = ref.replace(/^file:\/\//, "").replace(/^\.\//, "");
  if (/^([a-z]:|[/\\])/i.test(path) || /(^|[/\\])\.\.([/\\]|$)/.test(path)) {
    return { error: `${ref} points outside the config's folder; only files inside the uploaded zip are read` };
  }
  return { path };
}

/** The zip's paths a `file://` reference names (a glob: `*`, `**`, `?`), or why there are none. */
function bundleMatches(files: Bundle, ref: string): { paths: string[] } | { error: string } {
  const at = bundlePath(ref);
  if ("error" in at) return at;
  if (!files) return { error: `${ref} names a file: import a zip of the config with the files it references` };
  const paths = /[*?]/.test(at.path)
    ? [...files.keys()].filter((p) => globPattern(at.path).test(p)).sort()
    : files.has(at.path)
      ? [at.path]
      : [];
  return paths.length > 0 ? { paths } : { error: `${ref} is not in the zip (only its text files are read)` };
}

function globPattern(glob: string): RegExp {
  const parts = glob.split(/(\*\*\/|\*\*|\*|\?)/).map((part) => {
    if (part === "**/") return "(?:.*/)?";
    if (part === "**") return ".*";
    if (part === "*") return "[^/]*";
    if (part === "?") return "[^/]";
    return part.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  });
  return new RegExp(`^${parts.join("")}$`);
}

/** One file's text from the zip, or why it cannot be read. */
export function readBundleFile(files: Bundle, ref: string): FileRead {
  const found = /[*?]/.test(ref) ? { error: `${ref}: a pattern cannot name a single file` } : bundleMatches(files, ref);
  return "error" in found ? found : { text: decodeText(files!.get(found.paths[0]!)!) };
}

/** A YAML/JSON file's value, or null when it is not one (`what` names it in the note). */
function readStructuredFile(files: Bundle, ref: string, notes: string[], what: string): unknown {
  const file = readBundleFile(files, ref);
  if ("error" in file) {
    notes.push(`${what}: ${file.error}`);
    return null;
  }
  try {
    return parseStructuredDocument(file.text, /\.json$/i.test(ref) ? "json" : "yaml", `${ref} is empty`);
  } catch (err) {
    notes.push(`${what}: ${ref} could not be read: ${(err as Error).message}`);
    return null;
  }
}

export function readPrompts(value: unknown, files: Bundle, notes: string[]): Prompt[] {
  const prompts: Prompt[] = [];
  for (const { text, label } of promptEntries(value)) {
    if (!isNonEmptyString(text)) notes.push("A prompt without text was skipped");
    else if (!text.startsWith("file://")) prompts.push({ text, label: label ?? snippet(text, 60) });
    else prompts.push(...promptFiles(text, label, files, notes));
  }
  return prompts;
}

/** Prompts as promptfoo lists them: strings, `{raw|id, label}`, or a map of file → label. */
function promptEntries(value: unknown): { text: unknown; label: string | undefined }[] {
  const label = (v: unknown) => (isNonEmptyString(v) ? v : undefined);
  const one = (p: unknown) =>
    typeof p === "string" ? { text: p, label: undefined } : { text: asRecord(p)?.raw ?? asRecord(p)?.id, label: label(asRecord(p)?.label) };
  if (Array.isArray(value)) return value.map(one);
  const record = asRecord(value);
  if (record && record.raw === undefined && record.id === undefined)
    return Object.entries(record).map(([text, l]) => ({ text, label: label(l) }));
  return value == null ? [] : [one(value)];
}

/** A prompt file's prompts: text split on `---` lines, JSONL one per line, JSON/YAML a chat or a list of prompts. */
function promptFiles(ref: string, label: string | undefined, files: Bundle, notes: string[]): Prompt[] {
  if (CODE_FILE.test(ref)) {
    notes.push(`${ref} is a prompt function (code); Assay cannot render it`);
    return [];
  }
  const found = bundleMatches(files, ref);
  if ("error" in found) {
    notes.push(`Prompt ${found.error}`);
    return [];
  }
  return found.paths.flatMap((path) => {
    const texts = promptTexts(path, decodeText(files!.get(path)!), notes);
    return texts.map((text, k) => ({ text, label: `${label ?? path}${texts.length > 1 ? ` #${k + 1}` : ""}` }));
  });
}

function promptTexts(path: string, text: string, notes: string[]): string[] {
  if (/\.jsonl$/i.test(path)) return text.split("\n").filter((l) => l.trim() !== "");
  if (!/\.(json|ya?ml)$/i.test(path))
    return text
      .split(/^---$/m)
      .map((p) => p.trim())
      .filter(Boolean);
  let value: unknown;
  try {
    value = parseStructuredDocument(text, /\.json$/i.test(path) ? "json" : "yaml", `${path} is empty`);
  } catch (err) {
    notes.push(`Prompt file ${path} could not be read: ${(err as Error).message}`);
    return [];
  }
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value;
  return [JSON.stringify(value)];
}

export function readDefaultTest(value: unknown, files: Bundle, notes: string[]): Json {
  if (typeof value !== "string") return asRecord(value) ?? {};
  const read = asRecord(readStructuredFile(files, value, notes, "defaultTest"));
  if (!read) notes.push(`defaultTest ${value} was not applied to the tests`);
  return read ?? {};
}

export function readTests(value: unknown, files: Bundle, notes: string[]): RawTest[] {
  const list = Array.isArray(value) ? value : value == null ? [] : [value];
  if (list.length === 0) notes.push("The config has no tests");
  const out: RawTest[] = [];
  list.forEach((entry, k) => {
    if (typeof entry !== "string") {
      const test = asRecord(entry);
      return out.push({ test, origin: `tests[${k}]`, ...(test ? {} : { error: "A test must be an object with vars and assert" }) });
    }
    const found =
      /^[a-z][\w+.-]*:\/\//i.test(entry) && !entry.startsWith("file://")
        ? { error: `${entry}: tests from a URL or dataset are not read; save them as a CSV or YAML file and zip it with the config` }
        : bundleMatches(files, entry);
    if ("error" in found) {
      notes.push(`Tests ${found.error}`);
      return out.push({ test: null, origin: entry, error: found.error });
    }
    for (const path of found.paths) {
      try {
        testsInFile(path, decodeText(files!.get(path)!)).forEach((t, j) => {
          const test = asRecord(t);
          out.push({ test, origin: `${path}[${j}]`, ...(test ? {} : { error: `${path}[${j}] is not a test object` }) });
        });
      } catch (err) {
        out.push({ test: null, origin: path, error: `${path} could not be read: ${(err as Error).message}` });
      }
    }
  });
  return out;
}

function testsInFile(path: string, text: string): unknown[] {
  if (/\.csv$/i.test(path)) return csvTests(text);
  if (/\.jsonl$/i.test(path))
    return text
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as unknown);
  const value = parseStructuredDocument(text, /\.json$/i.test(path) ? "json" : "yaml", "Expected a list of tests");
  if (Array.isArray(value)) return value;
  const tests = asRecord(value)?.tests;
  return Array.isArray(tests) ? tests : [value];
}

/** promptfoo's CSV tests: each column a var, except the `__` columns promptfoo reads itself. */
function csvTests(text: string): Json[] {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: "greedy" });
  const quoteError = parsed.errors.find((e) => e.type === "Quotes");
  if (quoteError) throw new Error(`row ${(quoteError.row ?? 0) + 2}: ${quoteError.message}`);
  return parsed.data.map((row) => {
    const test: Json = {};
    const vars: Json = {};
    const assert: Json[] = [];
    const metadata: Json = {};
    const options: Json = {};
    for (const [column, value] of Object.entries(row)) {
      if (value === undefined) continue;
      if (/^__expected\d*$/.test(column)) {
        if (value.trim() !== "") assert.push(parseShorthand(value));
      } else if (column === "__description") test.description = value;
      else if (column.startsWith("__metadata:")) {
        const key = column.slice("__metadata:".length);
        if (key.endsWith("[]"))
          metadata[key.slice(0, -2)] = value
            .split(",")
            .map((v) => v.trim())
            .filter(Boolean);
        else metadata[key] = value;
      } else if (column === "__threshold") test.threshold = Number(value);
      else if (column === "__prefix" || column === "__suffix") options[column.slice(2)] = value;
      else if (column === "__metric") test.__metric = value;
      else if (column.startsWith("__")) test[column] = value;
      else vars[column] = value;
    }
    if (isNonEmptyString(test.__metric)) for (const a of assert) a.metric = test.__metric;
    delete test.__metric;
    return {
      ...test,
      vars,
      assert,
      ...(Object.keys(metadata).length ? { metadata } : {}),
      ...(Object.keys(options).length ? { options } : {}),
    };
  });
}
