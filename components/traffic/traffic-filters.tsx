import type { TrafficRawFilters } from "@/lib/traffic/loaders";
import { InputField, Options } from "@/components/ui/field";
import { FilterForm, FilterSelect } from "@/components/ui/filter-form";

const RANGE_LABELS = { "1h": "Last hour", "24h": "Last 24 hours", "7d": "Last 7 days", "14d": "Last 14 days" } as const;
const RANGES = Object.keys(RANGE_LABELS) as (keyof typeof RANGE_LABELS)[];

/** The Traffic page's filters as a plain GET form: the URL holds them, so a filtered list can be shared as a link. */
export function TrafficFilters({
  base,
  raw,
  errors,
  services,
  agents,
}: {
  base: string;
  raw: TrafficRawFilters;
  errors: Record<string, string>;
  services: string[];
  agents: { id: string; name: string; service: string }[];
}) {
  const filtered = Object.values(raw).some(Boolean);
  /** A filter's parameter, its value from the URL and its message. */
  const fromUrl = (name: Exclude<keyof TrafficRawFilters, "has_error">) => ({ name, defaultValue: raw[name] ?? "", error: errors[name] });
  return (
    <FilterForm base={base} label="Filter conversations" filtered={filtered}>
      {agents.length > 0 && (
        <FilterSelect id="traffic-agent" label="Agent" className="max-w-full min-w-40" {...fromUrl("agent")}>
          <option value="">Any agent</option>
          {agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.name} ({a.service})
            </option>
          ))}
        </FilterSelect>
      )}
      <FilterSelect id="traffic-service" label="Service" className="max-w-full min-w-40" {...fromUrl("service")}>
        <option value="">Any service</option>
        {/* A service from a shared link that sent nothing recently is still offered. */}
        {[...new Set([...(raw.service ? [raw.service] : []), ...services])].map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect id="traffic-range" label="Started" {...fromUrl("range")}>
        <Options values={RANGES} labels={RANGE_LABELS} none="Any time" />
      </FilterSelect>
      <InputField id="traffic-tool" label="Used tool" placeholder="lookup_order" className="w-40" {...fromUrl("tool")} />
      <InputField id="traffic-turns" label="User turns ≥" inputMode="numeric" className="w-20" {...fromUrl("min_turns")} />
      <InputField id="traffic-q" label="User said" type="search" placeholder="refund" className="w-48" {...fromUrl("q")} />
      <label className="flex items-center gap-2 pb-2 text-sm">
        <input type="checkbox" name="has_error" value="true" defaultChecked={raw.has_error === "true"} />
        Has an error
      </label>
    </FilterForm>
  );
}
