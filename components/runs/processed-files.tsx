import type { ProcessedFileInput } from "@/lib/files/types";
import { Badge } from "@/components/ui/card";
import { formatDuration, formatNumber } from "./format";

/**
 * The execution model's ProcessedFileInput in the UI: the case view lists every file of a case result with its
 * extracted markdown (collapsed), and the case form's preview shows the same details for one file.
 */

/** 812 → "812 B", 2_400 → "2.3 KB", 3_500_000 → "3.3 MB". */
export function formatBytes(n: unknown): string {
  if (typeof n !== "number" || !Number.isFinite(n)) return "—";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

/** What a file is called: its metadata name, else its URL, else its `file:<id>` path. */
export function processedFileName(f: ProcessedFileInput): string {
  const name = f.metadata?.name;
  return typeof name === "string" && name ? name : (f.original.url ?? f.original.path ?? "file");
}

const HIDDEN_KEYS = new Set(["name", "size_bytes", "sha256"]);

const LABELS: Record<string, string> = {
  cache: "Extraction cache",
  url_cache: "Download",
  sent_width: "Sent width",
  sent_height: "Sent height",
  sent_bytes: "Sent bytes",
};

function label(key: string): string {
  if (LABELS[key]) return LABELS[key];
  const words = key.replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function value(v: unknown): string {
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "string") return v;
  if (Array.isArray(v) && v.every((x) => typeof x !== "object" || x === null)) return v.join(", ");
  return JSON.stringify(v);
}

/** The metadata worth reading (size, format, pages/sheets/slides, dimensions, cache hits), as label/value pairs. */
export function metadataFacts(metadata: Record<string, unknown> | null | undefined): [string, string][] {
  const m = metadata ?? {};
  const facts: [string, string][] = [];
  if (m.size_bytes !== undefined) facts.push(["Size", formatBytes(m.size_bytes)]);
  for (const [k, v] of Object.entries(m)) {
    if (HIDDEN_KEYS.has(k) || v === null || v === undefined || v === "") continue;
    facts.push([label(k), value(v)]);
  }
  return facts;
}

/** Processing time, metadata and the error (if any) of one processed file. */
export function ProcessedFileFacts({ file }: { file: ProcessedFileInput }) {
  const facts: [string, string][] = [
    ["Type", file.original.type],
    ["Processing time", formatDuration(file.processing_time_ms)],
    ...metadataFacts(file.metadata),
  ];
  if (file.original.pages?.length) facts.push(["Pages requested", file.original.pages.join(", ")]);
  if (file.original.sheet) facts.push(["Sheet requested", file.original.sheet]);
  if (file.original.range) facts.push(["Range requested", file.original.range]);
  return (
    <div className="space-y-2">
      <dl className="flex flex-wrap gap-x-5 gap-y-1 text-xs">
        {facts.map(([k, v]) => (
          <div key={k} className="flex gap-1">
            <dt className="text-slate-500">{k}:</dt>
            <dd className="text-slate-900 tabular-nums">{v}</dd>
          </div>
        ))}
      </dl>
      {file.error && (
        <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="processed-file-error">
          {file.error}
        </p>
      )}
    </div>
  );
}

/** The extracted markdown as preformatted text, scrollable when long (focusable so keyboards can scroll it). */
export function MarkdownBlock({ markdown, label }: { markdown: string; label: string }) {
  if (!markdown) return <p className="text-sm text-slate-500">No content was extracted.</p>;
  return (
    <pre
      tabIndex={0}
      aria-label={label}
      className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-xs break-words whitespace-pre-wrap text-slate-800"
    >
      {markdown}
    </pre>
  );
}

/** The case view's "Processed files": one entry per file, its markdown collapsed by default. */
export function ProcessedFiles({ files }: { files: ProcessedFileInput[] }) {
  if (files.length === 0) return <p className="text-sm text-slate-500">No files were processed for this case yet.</p>;
  return (
    <ul className="space-y-4" aria-label="Processed files">
      {files.map((f, i) => {
        const name = processedFileName(f);
        return (
          <li key={i} className="space-y-2 rounded-md border border-slate-200 p-3" data-testid="processed-file">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium break-all text-slate-900">{name}</span>
              <Badge>{f.original.type}</Badge>
              {f.error ? <Badge tone="red">failed</Badge> : <Badge tone="green">processed</Badge>}
              {f.original.url && f.cached_path && <Badge tone="blue">cached</Badge>}
            </div>
            {f.original.description && <p className="text-sm text-slate-600">{f.original.description}</p>}
            <ProcessedFileFacts file={f} />
            {!f.error && (
              <details>
                <summary className="cursor-pointer text-sm text-indigo-700">
                  Extracted markdown ({formatNumber(f.markdown_content.length)} characters)
                </summary>
                <div className="mt-2">
                  <MarkdownBlock markdown={f.markdown_content} label={`Extracted markdown of ${name}`} />
                </div>
              </details>
            )}
          </li>
        );
      })}
    </ul>
  );
}
