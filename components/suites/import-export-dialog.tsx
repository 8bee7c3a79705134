"use client";
import { useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { parse as parseYaml } from "yaml";
import { importTestCasesAction } from "@/lib/test-cases/actions";
import { Button } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { useOpenedDialog, type DialogOpener } from "@/components/ui/launch-dialog";
import { Textarea } from "@/components/ui/field";

type Format = "yaml" | "json";
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

/** How many cases the text holds (a list, or an object with a test_cases list); null when unreadable. */
function countCases(text: string): number | null {
  try {
    const doc: unknown = parseYaml(text);
    if (Array.isArray(doc)) return doc.length;
    if (doc && typeof doc === "object" && Array.isArray((doc as { test_cases?: unknown }).test_cases)) {
      return (doc as { test_cases: unknown[] }).test_cases.length;
    }
  } catch {
    // The server reports the syntax error.
  }
  return null;
}

function detectFormat(text: string): Format {
  return /^\s*[[{]/.test(text) ? "json" : "yaml";
}

/** Import test cases from a YAML or JSON file or pasted text; nothing is written while any case is invalid. */
export function ImportDialog({ workspaceId, suiteId, opener }: { workspaceId: string; suiteId: string; opener?: DialogOpener }) {
  const router = useRouter();
  const ref = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [format, setFormat] = useState<Format>("yaml");
  const [error, setError] = useState<string | null>(null);
  const [issues, setIssues] = useState<ImportIssue[]>([]);
  const [validCount, setValidCount] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  const reset = () => {
    setError(null);
    setIssues([]);
    setValidCount(null);
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
    const body = await file.text();
    setFileName(file.name);
    setText(body);
    setFormat(/\.json$/i.test(file.name) ? "json" : /\.ya?ml$/i.test(file.name) ? "yaml" : detectFormat(body));
  };

  const submit = (validOnly: boolean) =>
    startTransition(async () => {
      reset();
      if (text.trim() === "") {
        setError("Choose a file or paste YAML or JSON first");
        return;
      }
      const r = await importTestCasesAction(workspaceId, { suite_id: suiteId, text, format, valid_only: validOnly });
      if (!r.ok) {
        setError(r.error);
        setIssues(r.issues);
        const total = countCases(text);
        const invalid = new Set(r.issues.map((i) => caseIndex(i.path)).filter((i): i is number => i !== null));
        setValidCount(total !== null && invalid.size > 0 ? Math.max(total - invalid.size, 0) : null);
        return;
      }
      const skipped = r.data.errors.length > 0 ? new Set(r.data.errors.map((e) => e.index)).size : 0;
      setNotice(
        `Imported ${r.data.imported} test case${r.data.imported === 1 ? "" : "s"}.${skipped > 0 ? ` Skipped ${skipped} invalid case${skipped === 1 ? "" : "s"}.` : ""}`,
      );
      setText("");
      setFileName(null);
      ref.current?.close();
      router.refresh();
    });

  // Document-level problems (syntax, shape) are in the message already unless there are several.
  const listed = issues.filter((i) => i.path !== "" || issues.length > 1);

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
            submit(false);
          }}
        >
          <div>
            <h2 id="import-title" className="text-base font-semibold">
              Import test cases
            </h2>
            <p className="mt-1 text-sm text-slate-600">
              A list of cases in the test case format (plus checks, mode and ground_truth), as YAML or JSON — the same format Export writes.
              Every case is checked first; nothing is imported while any case is invalid.
            </p>
          </div>
          <div className="space-y-1">
            <label htmlFor="import-file" className="block text-sm font-medium text-slate-700">
              Upload a file (.yaml, .yml or .json)
            </label>
            <input
              id="import-file"
              type="file"
              accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml"
              className="block text-sm"
              onChange={(e) => void onFile(e.target.files?.[0])}
            />
            {fileName && <p className="text-xs text-slate-500">Loaded {fileName} — you can still edit the text below.</p>}
          </div>
          <div className="space-y-1">
            <label htmlFor="import-text" className="block text-sm font-medium text-slate-700">
              Or paste YAML or JSON
            </label>
            <Textarea
              id="import-text"
              rows={10}
              spellCheck={false}
              className="font-mono text-xs"
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                if (!fileName) setFormat(detectFormat(e.target.value));
              }}
            />
          </div>
          <fieldset className="flex items-center gap-4 text-sm text-slate-700">
            <legend className="sr-only">Format</legend>
            <span className="font-medium">Format</span>
            {(["yaml", "json"] as const).map((f) => (
              <label key={f} className="flex items-center gap-1">
                <input type="radio" name="import-format" checked={format === f} onChange={() => setFormat(f)} />
                {f.toUpperCase()}
              </label>
            ))}
          </fieldset>
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
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => ref.current?.close()} disabled={pending}>
              Cancel
            </Button>
            {validCount !== null && validCount > 0 && (
              <Button variant="secondary" onClick={() => submit(true)} disabled={pending}>
                Import only the {validCount} valid case{validCount === 1 ? "" : "s"}
              </Button>
            )}
            <SubmitButton pending={pending} pendingLabel="Importing…">
              Import
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </>
  );
}
