"use client";
import { useMemo, useState } from "react";
import { useFieldArray, useFormContext } from "react-hook-form";
import { useQueryClient } from "@tanstack/react-query";
import { FILE_TYPES, fileIdOf, MAX_CASE_FILES, type FileType } from "@/lib/files/schemas";
import { Field, Input, Options, Select, SelectField } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { formatBytes } from "@/components/runs/processed-files";
import { FormSection } from "./case-form-basics";
import { errorAt } from "./form-errors";
import { fileKeys, useStoredFiles, type StoredFileInfo } from "./file-api";
import { FileUpload } from "./file-upload";
import { FilePreview } from "./file-preview";
import { uploadedFileRow, urlFileRow } from "./case-file-rows";
import type { CaseFormValues } from "./form-values";

const TYPE_LABELS: Record<FileType, string> = {
  image: "Image",
  pdf: "PDF",
  text: "Text",
  excel: "Excel",
  word: "Word",
  powerpoint: "PowerPoint",
  csv: "CSV",
};

/**
 * The case form's "Files" section (the execution model's file inputs, at most 10): upload (drop or choose) into
 * the workspace file store, pick an already uploaded file, or add a URL; per file its type,
 * description and the options its type takes, and a preview of what the agent will see.
 */
export function CaseFilesSection({ workspaceId }: { workspaceId: string }) {
  const { control, formState } = useFormContext<CaseFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "files" });
  const queryClient = useQueryClient();
  const stored = useStoredFiles(workspaceId);
  const byId = useMemo(() => new Map((stored.data?.data ?? []).map((f) => [f.id.toLowerCase(), f])), [stored.data]);
  const remaining = MAX_CASE_FILES - fields.length;
  const filesError = formState.errors.files as { message?: string; root?: { message?: string } } | undefined;
  const listError = filesError?.message ?? filesError?.root?.message;

  const addStored = (file: StoredFileInfo) => {
    append(uploadedFileRow(file), { shouldFocus: false });
    void queryClient.invalidateQueries({ queryKey: fileKeys.list(workspaceId) });
  };

  return (
    <FormSection
      title="Files"
      description={`Documents, sheets and images sent with the first message (up to ${MAX_CASE_FILES}). The agent receives their content as markdown; images go to vision models as images.`}
    >
      {fields.length === 0 && <p className="text-sm text-slate-500">No files. Upload one, pick an uploaded file or add a URL.</p>}
      {fields.length > 0 && (
        <ol className="space-y-3" aria-label="Case files">
          {fields.map((f, i) => (
            <FileRowFields key={f.id} index={i} workspaceId={workspaceId} stored={byId} onRemove={() => remove(i)} />
          ))}
        </ol>
      )}
      {listError && (
        <p className="text-xs text-red-600" data-testid="error-files">
          {listError}
        </p>
      )}
      <FileUpload workspaceId={workspaceId} remaining={remaining} onUploaded={addStored} />
      <div className="flex flex-wrap items-end gap-3">
        <Button variant="secondary" size="sm" disabled={remaining <= 0} onClick={() => append(urlFileRow())}>
          Add URL
        </Button>
        <StoredFilePicker files={stored.data?.data ?? []} loading={stored.isPending} disabled={remaining <= 0} onPick={addStored} />
      </div>
      {stored.isError && <p className="text-xs text-amber-800">The list of uploaded files could not be loaded: {stored.error.message}</p>}
    </FormSection>
  );
}

function StoredFilePicker({
  files,
  loading,
  disabled,
  onPick,
}: {
  files: StoredFileInfo[];
  loading: boolean;
  disabled: boolean;
  onPick: (file: StoredFileInfo) => void;
}) {
  const [value, setValue] = useState("");
  if (!loading && files.length === 0) return null;
  return (
    <div className="flex items-end gap-2">
      <div className="text-xs text-slate-600">
        <label htmlFor="files-pick-stored">Add an uploaded file</label>
        <Select
          id="files-pick-stored"
          className="mt-1 w-72"
          value={value}
          disabled={disabled || loading}
          onChange={(e) => setValue(e.target.value)}
        >
          <option value="">{loading ? "Loading files…" : "Choose a file"}</option>
          {files.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name} ({formatBytes(f.size_bytes)})
            </option>
          ))}
        </Select>
      </div>
      <Button
        variant="secondary"
        size="sm"
        disabled={disabled || !value}
        onClick={() => {
          const file = files.find((f) => f.id === value);
          if (file) onPick(file);
          setValue("");
        }}
      >
        Add file
      </Button>
    </div>
  );
}

function FileRowFields({
  index,
  workspaceId,
  stored,
  onRemove,
}: {
  index: number;
  workspaceId: string;
  stored: Map<string, StoredFileInfo>;
  onRemove: () => void;
}) {
  const { register, formState, watch, getValues } = useFormContext<CaseFormValues>();
  const p = `files.${index}` as const;
  // A removed row's index can be read once more before its fields unmount.
  const row = watch(p) ?? urlFileRow();
  const err = (field: string) => errorAt(formState.errors, `${p}.${field}`);
  const id = fileIdOf(row.path);
  const info = id ? stored.get(id) : undefined;
  const name = row.source === "url" ? row.url || "New URL" : row.name || info?.name || row.path;
  const size = row.size_bytes ?? info?.size_bytes ?? null;
  const label = `file ${index + 1}`;
  const showPages = ["pdf", "powerpoint"].includes(row.type) || row.pages !== "";
  const showSheet = row.type === "excel" || row.sheet !== "" || row.range !== "";
  const pathError = err("path");
  // An issue about the whole file (e.g. a stored file that no longer exists) lands on the row itself.
  const rowError = (formState.errors.files?.[index] as { message?: string } | undefined)?.message;

  return (
    <li>
      <fieldset className="space-y-3 rounded-md border border-slate-200 p-3" aria-label={`File ${index + 1}: ${name}`}>
        <legend className="flex flex-wrap items-center gap-2 px-1 text-xs font-medium text-slate-500">
          File {index + 1}
          <Badge tone={row.source === "url" ? "blue" : "slate"}>{row.source === "url" ? "URL" : "Uploaded"}</Badge>
        </legend>
        {rowError && (
          <p className="text-xs text-red-600" data-testid={`error-${p}`}>
            {rowError}
          </p>
        )}
        {row.source === "upload" ? (
          <div className="text-sm">
            <span className="font-medium break-all text-slate-900" data-testid="file-name">
              {name}
            </span>
            {size !== null && <span className="ml-2 text-slate-500">({formatBytes(size)})</span>}
            {info?.type && row.type && info.type !== row.type && (
              <p className="mt-1 text-xs text-amber-800">
                The content looks like {TYPE_LABELS[info.type]}, not {TYPE_LABELS[row.type]}: the server will refuse the mismatch.
              </p>
            )}
            {pathError && (
              <p className="mt-1 text-xs text-red-600" data-testid={`error-${p}.path`}>
                {pathError}
              </p>
            )}
          </div>
        ) : (
          <Field id={`${p}.url`} label="URL" required error={err("url") ?? pathError} hint="Fetched when the case runs (http or https)">
            <Input
              id={`${p}.url`}
              type="url"
              inputMode="url"
              placeholder="https://example.com/invoice.pdf"
              aria-invalid={!!(err("url") ?? pathError)}
              {...register(`${p}.url`)}
            />
          </Field>
        )}
        <div className="grid gap-3 sm:grid-cols-[12rem_1fr]">
          <SelectField id={`${p}.type`} label="Type" required error={err("type")} {...register(`${p}.type`)}>
            <Options values={FILE_TYPES} labels={TYPE_LABELS} none="Choose a type" />
          </SelectField>
          <Field
            id={`${p}.description`}
            label="Description"
            hint="Optional: what this file is, shown to the agent"
            error={err("description")}
          >
            <Input id={`${p}.description`} maxLength={1000} {...register(`${p}.description`)} />
          </Field>
        </div>
        {(showPages || showSheet) && (
          <div className="grid gap-3 sm:grid-cols-3">
            {showPages && (
              <Field
                id={`${p}.pages`}
                label={row.type === "powerpoint" ? "Slides" : "Pages"}
                hint="Optional, comma-separated (e.g. 1, 3); empty for all"
                error={err("pages")}
              >
                <Input id={`${p}.pages`} inputMode="numeric" aria-invalid={!!err("pages")} {...register(`${p}.pages`)} />
              </Field>
            )}
            {showSheet && (
              <>
                <Field id={`${p}.sheet`} label="Sheet" hint="Optional; empty for the first sheet" error={err("sheet")}>
                  <Input id={`${p}.sheet`} maxLength={100} {...register(`${p}.sheet`)} />
                </Field>
                <Field id={`${p}.range`} label="Range" hint="Optional A1 range, e.g. A1:E100" error={err("range")}>
                  <Input id={`${p}.range`} aria-invalid={!!err("range")} {...register(`${p}.range`)} />
                </Field>
              </>
            )}
          </div>
        )}
        {row.source === "url" && (
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register(`${p}.cache`)} />
            Cache the download (reuse it while the URL&apos;s ETag or Last-Modified is unchanged)
          </label>
        )}
        <div className="flex flex-wrap items-start justify-between gap-2">
          <FilePreview workspaceId={workspaceId} row={() => getValues(p)} label={label} />
          <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove ${label}`}>
            Remove file
          </Button>
        </div>
      </fieldset>
    </li>
  );
}
