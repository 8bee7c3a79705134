"use client";
import type { UseFormRegisterReturn } from "react-hook-form";
import { InputField } from "@/components/ui/field";
import { RATE_LIMIT_LABELS } from "@/lib/rate-limits/schemas";

type RateLimitKey = keyof typeof RATE_LIMIT_LABELS;

const HINTS: Record<RateLimitKey, string> = {
  rpm: "All workers together",
  tpm: "Prompt and completion tokens",
  max_concurrency: "Requests in flight, all workers",
};

/**
 * The provider's declared limits of a model configuration or an HTTP agent (requests and tokens
 * per minute, requests at once): Assay paces its requests to them across every worker. Blank:
 * none declared, learned from the provider's 429 answers and x-ratelimit-* headers.
 */
export function RateLimitFields({
  idPrefix,
  inputs,
  errors,
}: {
  idPrefix: string;
  inputs: Record<RateLimitKey, UseFormRegisterReturn>;
  errors: Partial<Record<RateLimitKey, string | undefined>>;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700">Provider rate limits</legend>
      <p className="text-xs text-slate-500">
        Requests are paced to these across every worker, and judge calls never hold back a running case&apos;s agent. Leave blank to learn
        them from the provider&apos;s 429 answers.
      </p>
      <div className="grid gap-4 sm:grid-cols-3">
        {(Object.keys(RATE_LIMIT_LABELS) as RateLimitKey[]).map((key) => (
          <InputField
            key={key}
            id={`${idPrefix}${key}`}
            label={RATE_LIMIT_LABELS[key]}
            hint={HINTS[key]}
            error={errors[key]}
            inputMode="numeric"
            {...inputs[key]}
          />
        ))}
      </div>
    </fieldset>
  );
}
