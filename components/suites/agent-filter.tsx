"use client";
import { useRouter } from "next/navigation";
import { NamedOptions, Select } from "@/components/ui/field";

/** Filters the suite list by agent through the URL (`?agent=<id>`), so the page stays server-rendered. */
export function AgentFilter({
  basePath,
  agents,
  value,
}: {
  basePath: string;
  agents: { id: string; name: string }[];
  value: string | null;
}) {
  const router = useRouter();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="agent-filter" className="text-sm whitespace-nowrap text-slate-600">
        Filter by agent
      </label>
      <div className="w-64">
        <Select
          id="agent-filter"
          value={value ?? ""}
          onChange={(e) => router.push(e.target.value ? `${basePath}?agent=${e.target.value}` : basePath)}
        >
          <NamedOptions items={agents} none="All agents" />
        </Select>
      </div>
    </div>
  );
}
