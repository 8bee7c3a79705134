"use client";
import { useEffect, useId, useRef, useState } from "react";
import { MAX_CASE_FILES, MAX_FILE_BYTES } from "@/lib/files/schemas";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { formatBytes } from "@/components/runs/processed-files";
import { uploadFile, type StoredFileInfo, type UploadHandle } from "./file-api";

type Upload = {
  key: number;
  file: File;
  percent: number;
  error: string | null;
  handle: UploadHandle | null;
};

/**
 * The Files section's upload zone: drop files on it or use "Choose files" (a button, so it is
 * reachable by keyboard; the file input itself is visually hidden). Each upload shows its progress
 * and, on failure, its error with Retry and Dismiss; a finished upload is handed to `onUploaded`.
 */
export function FileUpload({
  workspaceId,
  remaining,
  disabled,
  onUploaded,
}: {
  workspaceId: string;
  /** How many more files the case can take. */
  remaining: number;
  disabled?: boolean;
  onUploaded: (file: StoredFileInfo) => void;
}) {
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const nextKey = useRef(0);
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const live = useRef(new Set<UploadHandle>());
  // Leaving the form cancels uploads still in flight.
  useEffect(() => {
    const handles = live.current;
    return () => handles.forEach((h) => h.abort());
  }, []);

  const update = (key: number, patch: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...patch } : u)));

  const start = (key: number, file: File) => {
    const handle = uploadFile(workspaceId, file, (percent) => update(key, { percent }));
    live.current.add(handle);
    update(key, { handle, error: null, percent: 0 });
    handle.promise.then(
      (stored) => {
        live.current.delete(handle);
        setUploads((list) => list.filter((u) => u.key !== key));
        onUploaded(stored);
      },
      (err: unknown) => {
        live.current.delete(handle);
        if (err instanceof DOMException && err.name === "AbortError") {
          setUploads((list) => list.filter((u) => u.key !== key));
          return;
        }
        update(key, { handle: null, error: err instanceof Error ? err.message : "The upload failed." });
      },
    );
  };

  const add = (files: FileList | File[]) => {
    const list = Array.from(files);
    if (list.length === 0) return;
    const inFlight = uploads.filter((u) => !u.error).length;
    const room = Math.max(0, remaining - inFlight);
    setNotice(
      list.length > room
        ? `A test case takes at most ${MAX_CASE_FILES} files: ${room === 0 ? "none" : `only the first ${room}`} of the ${list.length} chosen ${room === 1 ? "was" : "were"} added.`
        : null,
    );
    const accepted = list.slice(0, room).map((file) => ({ key: nextKey.current++, file, percent: 0, error: null, handle: null }));
    setUploads((current) => [...current, ...accepted]);
    accepted.forEach((u) => start(u.key, u.file));
  };

  const full = remaining - uploads.filter((u) => !u.error).length <= 0;
  const blocked = disabled || full;

  return (
    <div className="space-y-2">
      <div
        className={cn(
          "flex flex-col items-center gap-2 rounded-md border-2 border-dashed px-4 py-5 text-center text-sm",
          dragging ? "border-indigo-500 bg-indigo-50" : "border-slate-300 bg-slate-50",
          blocked && "opacity-60",
        )}
        data-testid="file-drop-zone"
        onDragOver={(e) => {
          if (blocked) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = "copy";
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          if (!blocked) add(e.dataTransfer.files);
        }}
      >
        <p className="text-slate-700">
          {full ? `This test case has ${MAX_CASE_FILES} files, the most it can take.` : "Drop files here, or"}
        </p>
        <input
          ref={input}
          id={inputId}
          type="file"
          multiple
          // Hidden: keyboards and screen readers use "Choose files", which opens it.
          hidden
          aria-label="Upload files"
          disabled={blocked}
          onChange={(e) => {
            if (e.target.files) add(e.target.files);
            e.target.value = "";
          }}
        />
        <Button variant="secondary" size="sm" disabled={blocked} onClick={() => input.current?.click()}>
          Choose files
        </Button>
        <p className="text-xs text-slate-500">
          PDF, Word, Excel, PowerPoint, CSV, text or images, up to {MAX_FILE_BYTES / (1024 * 1024)} MB each.
        </p>
      </div>
      {notice && (
        <p role="status" className="text-xs text-amber-800">
          {notice}
        </p>
      )}
      {uploads.length > 0 && (
        <ul className="space-y-2" aria-label="Uploads">
          {uploads.map((u) => (
            <li key={u.key} className="rounded-md border border-slate-200 px-3 py-2 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="min-w-0 font-medium break-all text-slate-800">
                  {u.file.name} <span className="font-normal text-slate-500">({formatBytes(u.file.size)})</span>
                </span>
                <div className="flex gap-1">
                  {u.error ? (
                    <>
                      <Button
                        variant="secondary"
                        size="sm"
                        onClick={() => start(u.key, u.file)}
                        aria-label={`Retry uploading ${u.file.name}`}
                      >
                        Retry
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setUploads((list) => list.filter((x) => x.key !== u.key))}
                        aria-label={`Dismiss ${u.file.name}`}
                      >
                        Dismiss
                      </Button>
                    </>
                  ) : (
                    <Button variant="ghost" size="sm" onClick={() => u.handle?.abort()} aria-label={`Cancel uploading ${u.file.name}`}>
                      Cancel
                    </Button>
                  )}
                </div>
              </div>
              {u.error ? (
                <p role="alert" className="mt-1 text-xs text-red-700" data-testid="upload-error">
                  {u.file.name}: {u.error}
                </p>
              ) : (
                <div className="mt-1 flex items-center gap-2">
                  <progress className="h-2 w-full" value={u.percent} max={100} aria-label={`Uploading ${u.file.name}`} />
                  <span className="w-10 text-right text-xs text-slate-600 tabular-nums">{u.percent}%</span>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
