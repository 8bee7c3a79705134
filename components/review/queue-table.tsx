import Link from "next/link";
import { Table, TableBody, TableCell, TableHeader, TableRow, TableTitleCell } from "@/components/ui/table";
import { formatDateTime } from "@/components/runs/format";
import type { ReviewItemDto } from "@/lib/review/dto";
import { itemHref, ReviewStatusBadge, SOURCE_LABELS, VerdictBadge, type QueueFilters } from "./format";

const COLUMNS = ["Case", "Suite", "Run", "Trial", "Source", "Status", "Labels", "My verdict", "Human verdict", "Created"];

/** One page of the review queue; each case opens its labelling view with the queue's filters. */
export function ReviewQueueTable({ workspaceId, items, filters }: { workspaceId: string; items: ReviewItemDto[]; filters: QueueFilters }) {
  return (
    <Table caption="Review items" density="compact">
      <TableHeader columns={COLUMNS} />
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.id}>
            <TableTitleCell href={itemHref(workspaceId, item.id, filters)} title={item.case_name} />
            <TableCell>{item.suite_name}</TableCell>
            <TableCell>
              <Link href={`/w/${workspaceId}/runs/${item.run_id}`} className="text-indigo-700 hover:underline">
                #{item.run_number}
              </Link>
            </TableCell>
            {/* Trials are counted from 1 on every page (stored from 0). */}
            <TableCell>{item.trial + 1}</TableCell>
            <TableCell className="whitespace-nowrap">{SOURCE_LABELS[item.source] ?? item.source}</TableCell>
            <TableCell>
              <ReviewStatusBadge status={item.status} />
            </TableCell>
            <TableCell className="whitespace-nowrap">
              {item.label_count}/{item.required_reviews}
            </TableCell>
            <TableCell>
              <VerdictBadge verdict={item.my_verdict} />
            </TableCell>
            <TableCell>
              <VerdictBadge verdict={item.human_verdict} />
            </TableCell>
            <TableCell className="whitespace-nowrap">{formatDateTime(item.created_at)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
