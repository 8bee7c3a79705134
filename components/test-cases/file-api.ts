import { useQuery } from "@tanstack/react-query";
import { apiGet, ApiError } from "@/lib/runs/hooks";
import { MAX_FILE_BYTES, type FileInput } from "@/lib/files/schemas";
import type { StoredFileDto } from "@/lib/files/dto";
import type { FilePreviewDto } from "@/lib/files/preview";

/**
 * The case form's calls to the workspace file store (session routes under /api/w/{workspaceId}/files):
 * uploads through XMLHttpRequest, because fetch reports no upload progress; the list of stored
 * files for the picker; the on-demand preview of what the agent will see.
 */

/** A stored file as POST/GET /api/w/{workspaceId}/files return it; `type` is sniffed from the content. */
export type StoredFileInfo = StoredFileDto;

export const filesApi = {
  list: (w: string) => `/api/w/${w}/files?limit=100`,
  upload: (w: string) => `/api/w/${w}/files`,
  preview: (w: string) => `/api/w/${w}/files/preview`,
};

export const fileKeys = { list: (w: string) => ["files", w, "list"] as const };

const TOO_LARGE = `The file is larger than ${MAX_FILE_BYTES / (1024 * 1024)} MB, the largest upload allowed.`;

/** The message of an error envelope `{error: {message, issues}}`, with its first issue when there is one. */
function envelopeMessage(status: number, text: string, tooLarge = TOO_LARGE): string {
  if (status === 413) return tooLarge;
  try {
    const body = JSON.parse(text) as { error?: { message?: string; issues?: { path?: string; message?: string }[] } };
    const issue = body.error?.issues?.[0]?.message;
    const message = body.error?.message;
    if (message && issue && issue !== message) return `${message}: ${issue}`;
    if (message ?? issue) return (message ?? issue)!;
  } catch {
    /* not JSON: fall through */
  }
  return `The request failed (HTTP ${status}).`;
}

export type UploadHandle = { promise: Promise<StoredFileInfo>; abort: () => void };

/** Uploads one file (multipart field `file`), reporting progress as 0..100. */
export function uploadFile(workspaceId: string, file: File, onProgress: (percent: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<StoredFileInfo>((resolve, reject) => {
    if (file.size > MAX_FILE_BYTES) {
      reject(new Error(TOO_LARGE));
      return;
    }
    xhr.open("POST", filesApi.upload(workspaceId));
    xhr.setRequestHeader("accept", "application/json");
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          onProgress(100);
          resolve(JSON.parse(xhr.responseText) as StoredFileInfo);
        } catch {
          reject(new Error("The server's answer to the upload could not be read."));
        }
      } else {
        reject(new Error(envelopeMessage(xhr.status, xhr.responseText)));
      }
    };
    xhr.onerror = () => reject(new Error("Network error: the upload did not reach the server. Check the connection and retry."));
    xhr.onabort = () => reject(new DOMException("Upload cancelled", "AbortError"));
    const body = new FormData();
    body.append("file", file, file.name);
    xhr.send(body);
  });
  return { promise, abort: () => xhr.abort() };
}

/** The workspace's stored files, for the "add an uploaded file" picker and the names of referenced files. */
export function useStoredFiles(workspaceId: string) {
  return useQuery({
    queryKey: fileKeys.list(workspaceId),
    queryFn: ({ signal }) => apiGet<{ data: StoredFileInfo[]; next_cursor: string | null }>(filesApi.list(workspaceId), signal),
    staleTime: 30_000,
  });
}

/** Extracts a file as the run would (POST …/files/preview) — what the agent will see. */
export async function previewFile(workspaceId: string, file: FileInput, signal?: AbortSignal): Promise<FilePreviewDto> {
  let res: Response;
  try {
    res = await fetch(filesApi.preview(workspaceId), {
      method: "POST",
      signal,
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ file }),
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === "AbortError") throw err;
    throw new Error("Network error: the preview request did not reach the server.");
  }
  const text = await res.text();
  if (!res.ok) throw new ApiError(envelopeMessage(res.status, text, "The file is too large to preview."), res.status, "preview_failed");
  return JSON.parse(text) as FilePreviewDto;
}
