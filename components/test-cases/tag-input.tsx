"use client";
import { useState } from "react";
import { PRESEEDED_TAGS } from "@/lib/test-cases/schemas";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/field";
import { ToggleChip } from "@/components/ui/toggle-chip";

/**
 * Tags editor: the pre-seeded tags as one-click toggles, free entry (Enter or comma adds),
 * and the suite's existing tags offered as suggestions.
 */
export function TagInput({
  id,
  value,
  onChange,
  suggestions,
  invalid,
  disabled,
}: {
  id: string;
  value: string[];
  onChange: (tags: string[]) => void;
  suggestions: string[];
  invalid?: boolean;
  disabled?: boolean;
}) {
  const [text, setText] = useState("");
  const add = (raw: string) => {
    const parts = raw
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    const next = [...value];
    for (const t of parts) if (!next.includes(t)) next.push(t);
    if (next.length !== value.length) onChange(next);
    setText("");
  };
  const toggle = (tag: string) => onChange(value.includes(tag) ? value.filter((t) => t !== tag) : [...value, tag]);
  const offered = suggestions.filter((t) => !value.includes(t));

  return (
    <div className="space-y-2">
      {value.length > 0 && (
        <ul aria-label="Selected tags" className="flex flex-wrap gap-1.5">
          {value.map((tag) => (
            <li key={tag} className="inline-flex items-center gap-1 rounded bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-800">
              {tag}
              {!disabled && (
                <button
                  type="button"
                  aria-label={`Remove tag ${tag}`}
                  className="rounded px-0.5 text-indigo-500 hover:text-indigo-900"
                  onClick={() => toggle(tag)}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Pre-seeded tags">
        <span className="text-xs text-slate-500">Quick tags:</span>
        {PRESEEDED_TAGS.map((tag) => {
          const on = value.includes(tag);
          return (
            <ToggleChip key={tag} on={on} disabled={disabled} onClick={() => toggle(tag)}>
              {tag}
            </ToggleChip>
          );
        })}
      </div>
      {!disabled && (
        <div className="flex gap-2">
          <Input
            id={id}
            value={text}
            list={`${id}-suggestions`}
            placeholder="Type a tag and press Enter"
            aria-invalid={invalid || undefined}
            aria-describedby={`${id}-hint`}
            onChange={(e) => {
              const v = e.target.value;
              if (v.includes(",")) add(v);
              else setText(v);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter" && text.trim() !== "") {
                e.preventDefault();
                add(text);
              } else if (e.key === "Backspace" && text === "" && value.length > 0) {
                onChange(value.slice(0, -1));
              }
            }}
            onBlur={() => text.trim() && add(text)}
          />
          <Button variant="secondary" className="shrink-0 whitespace-nowrap" onClick={() => add(text)} disabled={text.trim() === ""}>
            Add tag
          </Button>
          <datalist id={`${id}-suggestions`}>
            {offered.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
      )}
    </div>
  );
}
