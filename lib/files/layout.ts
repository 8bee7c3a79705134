/**
 * How a case's processed files reach the agent: appended to the FIRST user message in one
 * documented, stable layout (./README.md "Message layout"), within the per-case character budget
 * (ASSAY_FILES_MAX_CHARS) with a visible truncation marker; image files additionally go to
 * vision models as `image_url` parts, and HTTP agents also get `files` in their request body.
 * Pure functions: the case runner builds a `CaseFilesPrompt` once, the conversation uses it.
 */
import type { FileType } from "@/lib/files/schemas";
import type { HttpAgentFile, ImagePart, ProcessedFileInput } from "@/lib/files/types";

/** A file shown with a transcript message (display only: never the content or a data URL). */
export type FileAttachment = { name: string; type: FileType };

/** Everything the conversation needs to attach a case's files to its first user message. */
export type CaseFilesPrompt = {
  /** Appended to the first user message (starts with a blank line; see `withAttachedFiles`). */
  appendix: string;
  attachments: FileAttachment[];
  /** Images for vision models, in file order (sent as image_url parts after the text). */
  images: ImagePart[];
  /** HTTP agents' `files` (the same budgeted markdown). */
  httpFiles: HttpAgentFile[];
};

/** The line that ends a file's content when the per-case budget cut it. */
export function truncationMarker(cutChars: number, budget: number): string {
  return `[… ${cutChars.toLocaleString("en-US")} more characters cut: Assay's per-case file budget is ${budget.toLocaleString("en-US")} characters]`;
}

/**
 * Shares `budget` characters among the texts fairly: short texts are kept whole, the rest split
 * what is left equally (water-filling), so one huge file cannot crowd out a small one. Returns
 * how many characters of each text are kept.
 */
export function shareBudget(lengths: number[], budget: number): number[] {
  const kept = lengths.map(() => 0);
  let left = Math.max(0, budget);
  const order = lengths.map((len, i) => ({ len, i })).sort((a, b) => a.len - b.len);
  order.forEach(({ len, i }, k) => {
    const share = Math.floor(left / (order.length - k));
    kept[i] = Math.min(len, share);
    left -= kept[i]!;
  });
  return kept;
}

/** `text` cut to `keep` characters (never inside a surrogate pair) with the truncation marker. */
function cut(text: string, keep: number, budget: number): string {
  if (keep >= text.length) return text;
  let at = keep;
  const code = text.charCodeAt(at - 1);
  if (at > 0 && code >= 0xd800 && code <= 0xdbff) at--;
  return `${text.slice(0, at)}\n${truncationMarker(text.length - at, budget)}`;
}

/** "pdf, pages 1, 3" / "excel, sheet Q1, range A1:C3" / "image". */
function describeOptions(p: ProcessedFileInput): string {
  const f = p.original;
  const parts: string[] = [f.type];
  if (f.pages?.length) parts.push(`${f.pages.length === 1 ? "page" : "pages"} ${f.pages.join(", ")}`);
  if (f.sheet) parts.push(`sheet ${f.sheet}`);
  if (f.range) parts.push(`range ${f.range}`);
  return parts.join(", ");
}

export function fileName(p: ProcessedFileInput): string {
  const name = p.metadata.name;
  if (typeof name === "string" && name.trim()) return name;
  return p.original.path ?? p.original.url ?? "file";
}

/**
 * The prompt for a case's successfully processed files. `images` is aligned with `processed`
 * (null for files that are not images).
 */
export function layoutCaseFiles(
  processed: ProcessedFileInput[],
  images: (ImagePart | null)[],
  opts: { maxChars: number },
): CaseFilesPrompt {
  const keep = shareBudget(
    processed.map((p) => p.markdown_content.length),
    opts.maxChars,
  );
  const bodies = processed.map((p, i) => cut(p.markdown_content, keep[i]!, opts.maxChars));
  const n = processed.length;
  const blocks = processed.map((p, i) => {
    const head = [`---`, `Attached file ${i + 1} of ${n}: ${oneLine(fileName(p))} (${describeOptions(p)})`];
    if (p.original.description) head.push(`Description: ${oneLine(p.original.description)}`);
    return `${head.join("\n")}\n\n${bodies[i]}`;
  });
  return {
    appendix: n === 0 ? "" : `\n\n${blocks.join("\n\n")}\n---`,
    attachments: processed.map((p) => ({ name: fileName(p), type: p.original.type })),
    images: images.filter((img): img is ImagePart => img !== null),
    httpFiles: processed.map((p, i) => ({
      name: fileName(p),
      type: p.original.type,
      markdown: bodies[i]!,
      ...(p.original.url ? { url: p.original.url } : {}),
    })),
  };
}

/** The first user message as the agent receives it: the message, then the files' appendix. */
export function withAttachedFiles(message: string, prompt: CaseFilesPrompt | null | undefined): string {
  return prompt ? `${message}${prompt.appendix}` : message;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

/** One file block of a first user message, read back for display. */
export type AttachedFileBlock = {
  /** The header after "Attached file i of n: ", e.g. "invoice.pdf (pdf, pages 1, 3)". */
  title: string;
  description: string | null;
  /** The file's markdown as the agent received it (budget cuts included). */
  markdown: string;
};

/**
 * The inverse of `withAttachedFiles` for display: the user's message and the `count` file blocks
 * that follow it. A stored message may be cut (transcripts are capped), so blocks cut away are
 * missing and the last one may lack its closing `---`. Null when the layout is not found.
 */
export function splitAttachedFiles(content: string, count: number): { message: string; files: AttachedFileBlock[] } | null {
  if (count < 1) return null;
  const marker = (i: number) => `\n\n---\nAttached file ${i} of ${count}: `;
  const starts: number[] = [];
  let from = 0;
  for (let i = 1; i <= count; i++) {
    const at = content.indexOf(marker(i), from);
    if (at < 0) break;
    starts.push(at);
    from = at + marker(i).length;
  }
  if (starts.length === 0) return null;
  const files = starts.map((start, k) => {
    const isLast = k === starts.length - 1;
    let block = content.slice(start + marker(k + 1).length, isLast ? content.length : starts[k + 1]);
    if (isLast && starts.length === count && block.endsWith("\n---")) block = block.slice(0, -"\n---".length);
    const [title = "", ...rest] = block.split("\n");
    const description = rest[0]?.startsWith("Description: ") ? rest.shift()!.slice("Description: ".length) : null;
    // A blank line separates the header from the markdown.
    if (rest[0] === "") rest.shift();
    return { title, description, markdown: rest.join("\n") };
  });
  return { message: content.slice(0, starts[0]), files };
}
