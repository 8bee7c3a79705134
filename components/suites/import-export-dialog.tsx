"use client";
import { useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { IMPORT_FORMATS, type ImportFormat } from "@/lib/test-cases/schemas";
import { guessImportFormat, IMPORT_FORMAT_LABELS } from "@/lib/test-cases/formats/detect";
import { Button } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { useOpenedDialog, type DialogOpener } from "@/components/ui/launch-dialog";
import { Field, Options, Select, Textarea } from "@/components/ui/field";
import { ImportReport, reportSummary, type ImportReportData } from "./import-report";

type ImportIssue = { path: string; message: string };

/** "Case #3 · checks.0.threshold: …" from an issue whose path starts with the case index. */
export function describeImportIssue(issue: ImportIssue): string {
  const m = /^(\d+)(?:\.(.+))?$/.exec(issue.path);
  if (!m) return issue.path ? `${issue.path}: ${issue.message}` : issue.message;
  const n = Number(m[1]) + 1;
  return m[2] ? `Case #${n} · ${m[2]}: ${issue.message}` : `Case #${n}: ${issue.message}`;
}

function caseIndex(path: string): number | null {
  const m = /^(\d+)(?:\.|$)/.exec(path);
  return m ? Number(m[1]) : null;
}

const FORMAT_HINTS: Record<ImportFormat, string> = {
  assay:
    "A list of cases in the test case format (plus checks, mode and ground_truth) — what Export writes; or its zip with the uploaded files.",
  promptfoo:
    "A promptfooconfig.yaml (or .json): its tests with defaultTest merged, vars rendered into the first prompt, assertions as checks. Zip it with the files its file:// references name.",
  langfuse: "Dataset items as Langfuse's API or export gives them: a JSON array, {data: [...]}, or JSONL.",
  deepeval: "Goldens and conversational goldens as JSON (conversational goldens become simulated-user cases).",
  "openai-jsonl": "One {messages, tools} per line, the fine-tuning and evals format: several user turns become a simulated-user case.",
  inspect: "Inspect AI samples ({input, target, id, metadata}) as JSON or JSONL.",
};

/** The Content-Type a file is sent with: the server reads Assay's own documents by it (zip, YAML or JSON). */
function contentTypeOf(fileName: string | null, text: string, zip: boolean): string {
  if (zip) return "application/zip";
  if (fileName && /\.jsonl$/i.test(fileName)) return "application/x-ndjson";
  if (fileName && /\.ya?ml$/i.test(fileName)) return "application/yaml";
  if (fileName && /\.json$/i.test(fileName)) return "application/json";
  return /^\s*[[{]/.test(text) ? "application/json" : "application/yaml";
}

type Outcome = { ok: true; report: ImportReportData } | { ok: false; error: string; issues: ImportIssue[] };

/**
 * Import test cases from a file (Assay's own, or promptfoo, Langfuse, DeepEval, OpenAI chat JSONL,
 * Inspect AI) or pasted text. Preview runs the import as a dry run and shows per item what would be
 * created, mapped and dropped; nothing is written while any case is invalid unless the user
 * chooses to import only the valid ones. The file goes to the session twin of
 * POST /api/v1/suites/{id}/test-cases/import, so a zip travels as bytes.
 */
export function ImportDialog({ workspaceId, suiteId, opener }: { workspaceId: string; suiteId: string; opener?: DialogOpener }) {
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  const [zip, setZip] = useState<File | null>(null);
  const [fileName, setFileName] = useState<string | null>(null);
  const [format, setFormat] = useState<ImportFormat>("assay");
  const [detected, setDetected] = useState<ImportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<ImportIssue[]>([]);
  const [report, setReport] = useState<ImportReportData | null>(null);
  const [validCount, setValidCount] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const reportRef = useRef<HTMLDivElement>(null);

  // A new report (preview or import) sits below the file's text: bring its headline into view.
  useEffect(() => {
    if (report) reportRef.current?.scrollIntoView({ block: "start", behavior: "smooth" });
  }, [report]);

  const reset = () => {
    setError(null);
    setIssues([]);
    setValidCount(null);
    setReport(null);
  };

  const clearFile = () => {
    setText("");
    setZip(null);
    setFileName(null);
    setDetected(null);
  };

  const open = () => {
    reset();
    setNotice(null);
    ref.current?.showModal();
  };

  useOpenedDialog(ref, opener, () => {
    reset();
    setNotice(null);
  });

  const onFile = async (file: File | undefined) => {
    reset();
    if (!file) return;
    setFileName(file.name);
    if (/\.zip$/i.test(file.name) || file.type.includes("zip")) {
      setZip(file);
      setText("");
      setDetected(null);
      return;
    }
    const body = await file.text();
    setZip(null);
    setText(body);
    const guess = guessImportFormat(file.name, body);
    setDetected(guess);
    if (guess) setFormat(guess);
  };

  const send = async (opts: { dryRun: boolean; validOnly: boolean }): Promise<Outcome> => {
    const query = new URLSearchParams({ format, dry_run: String(opts.dryRun), valid_only: String(opts.validOnly) });
    let res: Response;
    try {
      res = await fetch(`/api/w/${workspaceId}/suites/${suiteId}/test-cases/import?${query}`, {
        method: "POST",
        headers: { "content-type": contentTypeOf(fileName, text, zip !== null) },
        body: zip ?? text,
      });
    } catch {
      return { ok: false, error: "The server could not be reached; nothing was imported", issues: [] };
    }
    const body = (await res.json().catch(() => null)) as
      (ImportReportData & { error?: undefined }) | { error?: { message?: string; issues?: ImportIssue[] } } | null;
    if (res.ok && body && !body.error) return { ok: true, report: body as ImportReportData };
    const err = body?.error;
    return { ok: false, error: err?.message ?? `The import failed (HTTP ${res.status})`, issues: err?.issues ?? [] };
  };

  const submit = (opts: { dryRun: boolean; validOnly: boolean }) =>
    startTransition(async () => {
      reset();
      if (!zip && text.trim() === "") {
        setError("Choose a file or paste its text first");
        return;
      }
      const r = await send(opts);
      if (!r.ok) {
        setError(r.error);
        setIssues(r.issues);
        // The same request as a dry run counts the valid cases the "only the valid ones" button offers.
        const invalid = new Set(r.issues.map((i) => caseIndex(i.path)).filter((i): i is number => i !== null));
        if (invalid.size > 0) {
          const preview = await send({ dryRun: true, validOnly: true });
          setValidCount(preview.ok && preview.report.would_import > 0 ? preview.report.would_import : null);
        }
        return;
      }
      if (opts.dryRun) {
        setReport(r.report);
        setValidCount(r.report.skipped > 0 && r.report.would_import > 0 ? r.report.would_import : null);
        return;
      }
      router.refresh();
      if (format === "assay") {
        setNotice(reportSummary(r.report, "case"));
        clearFile();
        ref.current?.close();
        return;
      }
      // Another tool's file: the report stays in view (what was mapped and dropped) until the user closes it.
      setReport(r.report);
      clearFile();
    });

  // Document-level problems (syntax, shape) are in the message already unless there are several.
  const listed = issues.filter((i) => i.path !== "" || issues.length > 1);
  const done = report !== null && !report.dry_run;
  const previewBlocked = report?.dry_run === true && report.skipped > 0;

  return (
    <>
      {!opener && (
        <Button variant="secondary" onClick={open}>
          Import
        </Button>
      )}
      {notice && (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      )}
      <dialog
        ref={ref}
        onClose={opener?.onClose}
        aria-labelledby="import-title"
        className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-2xl overflow-y-auto rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <form
          className="space-y-4 p-5"
          onSubmit={(e) => {
            e.preventDefault();
            if (done) ref.current?.close();
            else submit({ dryRun: false, validOnly: false });
          }}
        >
          <div>
            <h2 id="import-title" className="text-base font-semibold">
              Import test cases
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              From Assay or another tool. Preview shows what each item becomes and what cannot be carried over; nothing is imported while
              any case is invalid.
            </p>
          </div>
          {!done && (
            <>
              <Field
                id="import-format"
                label="Format"
                hint={
                  <>
                    {detected === format && fileName ? `Detected from ${fileName}. ` : ""}
                    {FORMAT_HINTS[format]}
                  </>
                }
              >
                <Select
                  id="import-format"
                  value={format}
                  onChange={(e) => {
                    setFormat(e.target.value as ImportFormat);
                    reset();
                  }}
                  aria-describedby="import-format-hint"
                >
                  <Options values={IMPORT_FORMATS} labels={IMPORT_FORMAT_LABELS} />
                </Select>
              </Field>
              <Field id="import-file" label="Upload a file (.yaml, .yml, .json, .jsonl or .zip)">
                <input
                  id="import-file"
                  type="file"
                  accept=".yaml,.yml,.json,.jsonl,.zip,application/json,application/yaml,text/yaml,application/zip"
                  className="block max-w-full text-sm"
                  onChange={(e) => void onFile(e.target.files?.[0])}
                />
                {fileName && (
                  <p className="text-xs text-slate-500">
                    Loaded {fileName}
                    {zip ? ` (${Math.ceil(zip.size / 1024)} KB zip)` : " — you can still edit the text below"}.
                  </p>
                )}
              </Field>
              {!zip && (
                <Field id="import-text" label="Or paste the file's text">
                  <Textarea
                    id="import-text"
                    rows={10}
                    spellCheck={false}
                    className="font-mono text-xs"
                    value={text}
                    onChange={(e) => {
                      setText(e.target.value);
                      setReport(null);
                    }}
                  />
                </Field>
              )}
            </>
          )}
          {error && (
            <div role="status" className="space-y-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
              <p>{error}</p>
              {listed.length > 0 && (
                <ul aria-label="Import errors" className="max-h-48 list-disc overflow-y-auto pl-5">
                  {listed.map((i, k) => (
                    <li key={k}>{describeImportIssue(i)}</li>
                  ))}
                </ul>
              )}
            </div>
          )}
          {report && (
            <div ref={reportRef}>
              <ImportReport report={report} />
            </div>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            {done ? (
              <SubmitButton pending={false}>Done</SubmitButton>
            ) : (
              <>
                <Button variant="secondary" onClick={() => ref.current?.close()} disabled={pending}>
                  Cancel
                </Button>
                <Button variant="secondary" onClick={() => submit({ dryRun: true, validOnly: false })} disabled={pending}>
                  Preview
                </Button>
                {validCount !== null && validCount > 0 && (
                  <Button variant="secondary" onClick={() => submit({ dryRun: false, validOnly: true })} disabled={pending}>
                    Import only the {validCount} valid case{validCount === 1 ? "" : "s"}
                  </Button>
                )}
                {!previewBlocked && (
                  <SubmitButton pending={pending} pendingLabel="Importing…">
                    Import
                  </SubmitButton>
                )}
              </>
            )}
          </div>
        </form>
      </dialog>
    </>
  );
}
