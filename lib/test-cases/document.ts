import YAML from "yaml";
import { ValidationError } from "@/lib/errors";
import { MAX_IMPORT_BYTES, MAX_YAML_ALIASES } from "@/lib/validation/limits";

/**
 * Reading an uploaded YAML or JSON document safely: the one parser behind every import (Assay's
 * own case documents and the foreign formats in ./formats). The same limits everywhere: at most
 * MAX_IMPORT_BYTES of text, and — since a few hundred bytes of YAML anchors can expand into
 * gigabytes — at most MAX_YAML_ALIASES aliases and at most MAX_IMPORT_BYTES once expanded, each
 * refused with a 400 that says so. Syntax errors name the line and column where known.
 */

export type CasesFormat = "yaml" | "json";

export const TOO_LARGE = `At most ${MAX_IMPORT_BYTES / (1024 * 1024)} MB`;

function lineColumn(text: string, position: number) {
  const before = text.slice(0, position);
  const line = before.split("\n").length;
  return { line, column: position - before.lastIndexOf("\n") };
}

/** Content-Type → format; undefined when it says neither (the document is sniffed). */
export function formatFromContentType(contentType: string | null | undefined): CasesFormat | undefined {
  const type = (contentType ?? "").toLowerCase();
  if (/\b(yaml|yml)\b/.test(type)) return "yaml";
  if (/\bjson\b/.test(type)) return "json";
  return undefined;
}

/** Refuses text over MAX_IMPORT_BYTES, and blank text with `emptyMessage`. */
export function checkDocumentText(text: string, emptyMessage: string) {
  if (Buffer.byteLength(text, "utf8") > MAX_IMPORT_BYTES)
    throw new ValidationError("The document is too large", [{ path: "", message: TOO_LARGE }]);
  if (text.trim() === "") throw new ValidationError("The document is empty", [{ path: "", message: emptyMessage }]);
}

/** JSON.parse with the line and column of a syntax error; `where` prefixes the message (e.g. "Line 3: "). */
export function parseJsonText(text: string, where = ""): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const pos = /at position (\d+)/.exec(message);
    const at = pos ? lineColumn(text, Number(pos[1])) : null;
    const detail = at ? `Line ${at.line}, column ${at.column}: ${message}` : message;
    throw new ValidationError(`The JSON document is invalid: ${where}${detail}`, [{ path: "", message: `${where}${detail}` }]);
  }
}

/** A YAML or JSON document (sniffed when `format` is not given) → its value, within the limits above. */
export function parseStructuredDocument(text: string, format: CasesFormat | undefined, emptyMessage: string): unknown {
  checkDocumentText(text, emptyMessage);
  const fmt = format ?? (/^\s*[[{]/.test(text) ? "json" : "yaml");
  if (fmt === "json") return parseJsonText(text);
  refuseManyAliases(text);
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const issues = doc.errors.map((e) => {
      const pos = e.linePos?.[0];
      const first = (e.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
      return { path: "", message: pos ? `Line ${pos.line}, column ${pos.col}: ${first}` : first };
    });
    throw new ValidationError(`The YAML document is invalid: ${issues[0]!.message}`, issues);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    // yaml throws a ReferenceError for excessive aliasing; a RangeError for nesting deeper than the stack.
    const message =
      err instanceof RangeError
        ? "The document is nested too deeply"
        : `The document's YAML aliases expand too much (at most ${MAX_YAML_ALIASES} resolved aliases); write the values out instead`;
    if (err instanceof ReferenceError || err instanceof RangeError) throw new ValidationError(message, [{ path: "", message }]);
    throw err;
  }
  checkExpandedSize(value);
  return value;
}

/**
 * Counts alias tokens (`*name`) with yaml's lexer before the document is composed: composing a
 * 1 MB alias bomb takes seconds even when toJS's maxAliasCount refuses it afterwards, while
 * lexing stops at the first alias over the limit (a plain scalar cannot start with `*`).
 */
function refuseManyAliases(text: string) {
  let aliases = 0;
  for (const token of new YAML.Lexer().lex(text)) {
    if (token.startsWith("*") && ++aliases > MAX_YAML_ALIASES) {
      const message = `The document uses more than ${MAX_YAML_ALIASES} YAML aliases; write the values out instead`;
      throw new ValidationError(message, [{ path: "", message }]);
    }
  }
}

/** Aliases within the count can still repeat large nodes: the expanded document must fit the same limit. */
function checkExpandedSize(value: unknown) {
  let size: number;
  try {
    size = JSON.stringify(value)?.length ?? 0;
  } catch {
    size = Infinity; // nested too deeply to serialise
  }
  if (size > MAX_IMPORT_BYTES) {
    throw new ValidationError("The document is too large once its YAML aliases are expanded", [{ path: "", message: TOO_LARGE }]);
  }
}
