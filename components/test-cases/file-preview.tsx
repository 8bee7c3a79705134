"use client";
import { useEffect, useRef, useState } from "react";
import type { FilePreviewDto } from "@/lib/files/preview";
import { Button } from "@/components/ui/button";
import { MarkdownBlock, ProcessedFileFacts } from "@/components/runs/processed-files";
import { previewFile } from "./file-api";
import { rowToFileInput, type FileRow } from "./case-file-rows";

type State = { kind: "idle" } | { kind: "loading" } | { kind: "error"; message: string } | { kind: "done"; result: FilePreviewDto };

/**
 * "Preview": extracts one file of the form as the run will (POST …/files/preview) and shows what
 * the agent will see — the markdown, processing time and metadata — or why it cannot.
 */
export function FilePreview({ workspaceId, row, label }: { workspaceId: string; row: () => FileRow; label: string }) {
  const [state, setState] = useState<State>({ kind: "idle" });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const run = async () => {
    const input = rowToFileInput(row());
    if ("error" in input) {
      setState({ kind: "error", message: `Fix this file first: ${input.error}` });
      return;
    }
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: "loading" });
    try {
      setState({ kind: "done", result: await previewFile(workspaceId, input.file, controller.signal) });
    } catch (err) {
      if (controller.signal.aborted) return;
      setState({ kind: "error", message: err instanceof Error ? err.message : "The preview failed." });
    }
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={run} disabled={state.kind === "loading"} aria-label={`Preview ${label}`}>
          {state.kind === "loading" ? "Extracting…" : state.kind === "done" ? "Preview again" : "Preview"}
        </Button>
        {(state.kind === "done" || state.kind === "error") && (
          <Button variant="ghost" size="sm" onClick={() => setState({ kind: "idle" })} aria-label={`Hide the preview of ${label}`}>
            Hide preview
          </Button>
        )}
      </div>
      <div aria-live="polite">
        {state.kind === "loading" && <p className="text-xs text-slate-500">Extracting the content…</p>}
        {state.kind === "error" && (
          <p className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800" data-testid="file-preview-error">
            {state.message}
          </p>
        )}
        {state.kind === "done" && (
          <section className="space-y-2 rounded-md border border-slate-200 bg-white p-3" aria-label={`What the agent will see of ${label}`}>
            <h4 className="text-sm font-medium text-slate-800">What the agent will see</h4>
            <ProcessedFileFacts file={state.result} />
            {state.result.image && (
              <figure className="space-y-1">
                {state.result.image.data_url && (
                  // eslint-disable-next-line @next/next/no-img-element -- a data URL from the preview, not an optimisable asset
                  <img
                    src={state.result.image.data_url}
                    alt={`${label} as a vision model receives it`}
                    className="max-h-48 rounded border border-slate-200"
                  />
                )}
                <figcaption className="text-xs text-slate-600">
                  Sent to vision models as a {state.result.image.width}×{state.result.image.height} {state.result.image.media_type} image
                  {state.result.image.data_url ? "" : " (too large to show here)"}; models not marked vision-capable get an error instead.
                </figcaption>
              </figure>
            )}
            {!state.result.error && <MarkdownBlock markdown={state.result.markdown_content} label={`Extracted markdown of ${label}`} />}
          </section>
        )}
      </div>
    </div>
  );
}
