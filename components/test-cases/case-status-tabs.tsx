import Link from "next/link";
import { cn } from "@/components/ui/cn";
import type { TestCaseStatus } from "@/lib/test-cases/schemas";
import { listHref, type ListFilters } from "@/lib/test-cases/list-url";
import type { StatusCounts } from "@/lib/test-cases/dto";

const TABS: { label: string; status?: TestCaseStatus; count: keyof StatusCounts }[] = [
  { label: "All", count: "total" },
  { label: "Active", status: "active", count: "active" },
  { label: "Draft", status: "draft", count: "draft" },
  { label: "Archived", status: "archived", count: "archived" },
];

/** Status filter as tabs with the number of matching cases in each status. */
export function CaseStatusTabs({ base, filters, counts }: { base: string; filters: ListFilters; counts: StatusCounts }) {
  return (
    <nav aria-label="Filter by status" className="flex gap-1 border-b border-slate-200">
      {TABS.map((tab) => {
        const current = filters.status === tab.status;
        return (
          <Link
            key={tab.label}
            href={listHref(base, { ...filters, status: tab.status })}
            aria-current={current ? "page" : undefined}
            className={cn(
              "-mb-px inline-flex items-center gap-1.5 border-b-2 px-3 py-2 text-sm font-medium",
              current ? "border-indigo-600 text-indigo-700" : "border-transparent text-slate-600 hover:text-slate-900",
            )}
          >
            {tab.label}
            <span className={cn("rounded-full px-1.5 text-xs", current ? "bg-indigo-100 text-indigo-800" : "bg-slate-100 text-slate-600")}>
              {counts[tab.count]}
            </span>
          </Link>
        );
      })}
    </nav>
  );
}
