"use client";
import { useId, useState } from "react";
import type { ProcessedFileInput } from "@/lib/files/types";
import type { AttachedFileBlock } from "@/lib/files/layout";
import { Markdown } from "@/components/ui/markdown";
import { formatNumber } from "./format";
import { formatBytes, processedFileName } from "./processed-files";

/**
 * The files attached to the first user message, each a collapsed element whose summary names the
 * file (type, size, pages…) and whose body is the content the agent received, rendered as
 * markdown (tables as tables). The markdown is only rendered once opened: a file may be long.
 */
export function Attachments({
  attachments,
  blocks,
  files,
}: {
  /** The message's `attachments` list ({name, type}), in file order. */
  attachments: { name: string; type: string }[];
  /** The file blocks read back from the message (may be fewer when the stored message was cut). */
  blocks: AttachedFileBlock[];
  /** The case result's processed files, for size and page counts. */
  files: ProcessedFileInput[];
}) {
  const processed = files.filter((f) => !f.error);
  return (
    <ul className="mt-2 space-y-1.5" aria-label="Attached files">
      {attachments.map((a, i) => {
        const file = processed.find((f) => processedFileName(f) === a.name) ?? processed[i];
        return (
          <li key={i}>
            <Attachment name={a.name} facts={[a.type, ...sizeFacts(file?.metadata)]} block={blocks[i]} />
          </li>
        );
      })}
    </ul>
  );
}

function Attachment({ name, facts, block }: { name: string; facts: string[]; block: AttachedFileBlock | undefined }) {
  const [opened, setOpened] = useState(false);
  const summaryId = useId();
  return (
    <details
      aria-labelledby={summaryId}
      className="group rounded-md border border-indigo-200 bg-white text-slate-900"
      onToggle={(e) => {
        if (e.currentTarget.open) setOpened(true);
      }}
    >
      <summary
        id={summaryId}
        className="cursor-pointer list-none px-2.5 py-1.5 text-xs marker:hidden hover:bg-slate-50 [&::-webkit-details-marker]:hidden"
      >
        <span className="mr-1.5 inline-block text-slate-400 transition-transform group-open:rotate-90" aria-hidden>
          ▸
        </span>
        <span className="font-medium break-all">Attachment: {name}</span>
        <span className="text-slate-600"> · {facts.join(" · ")}</span>
      </summary>
      <div className="space-y-2 border-t border-slate-100 px-2.5 py-2">
        {block?.description && <p className="text-xs text-slate-600">Description: {block.description}</p>}
        {!block ? (
          <p className="text-xs text-slate-500">The stored transcript was cut before this file; see Processed files below.</p>
        ) : opened ? (
          <Markdown>{block.markdown}</Markdown>
        ) : null}
      </div>
    </details>
  );
}

/** Size and the unit counts worth a glance: "12.3 KB", "3 pages", "2 sheets", "14 rows". */
function sizeFacts(metadata: Record<string, unknown> | undefined): string[] {
  const m = metadata ?? {};
  const facts: string[] = [];
  if (typeof m.size_bytes === "number") facts.push(formatBytes(m.size_bytes));
  const count = (key: string, unit: string) => {
    const v = m[key];
    const n = typeof v === "number" ? v : Array.isArray(v) ? v.length : null;
    if (n !== null) facts.push(`${formatNumber(n)} ${unit}${n === 1 ? "" : "s"}`);
  };
  count("pages", "page");
  count("slides", "slide");
  count("sheets", "sheet");
  count("rows", "row");
  return facts;
}
