import "server-only";
import type { z } from "zod";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { presetResource } from "./openapi";
import type { VariableValue } from "@/lib/agents/schemas";
import { iso } from "@/lib/serialize";

/** The public JSON of a suite preset. */
export type PresetDto = z.output<typeof presetResource>;

export const presetSelect = {
  id: true,
  suiteId: true,
  name: true,
  values: true,
  trials: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.SuitePresetSelect;

type PresetRow = Prisma.SuitePresetGetPayload<{ select: typeof presetSelect }>;

export function toPresetDto(row: PresetRow): PresetDto {
  const values = row.values && typeof row.values === "object" && !Array.isArray(row.values) ? row.values : {};
  return {
    id: row.id,
    suite_id: row.suiteId,
    name: row.name,
    values: values as Record<string, VariableValue>,
    trials: row.trials,
    created_at: iso(row.createdAt) ?? "",
    updated_at: iso(row.updatedAt) ?? "",
  };
}
