import Link from "next/link";
import type { CombinationDto, MatrixTableDto } from "@/lib/matrices/dto";
import { Section } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { cn } from "@/components/ui/cn";
import { runLabel } from "@/lib/runs/dto";
import { CELL_STYLES, caseResultHref, formatRate, runHref, shortName } from "./format";

/**
 * The heat map: rows = cases, columns = combinations (each heading links to the combination's
 * run, #N), each cell the verdict in colour and in words (over the repetitions: "2/3 passed"
 * when they disagree), linking to the case result.
 */
export function MatrixHeatMap({
  workspaceId,
  combinations,
  table,
}: {
  workspaceId: string;
  combinations: CombinationDto[];
  table: MatrixTableDto;
}) {
  return (
    <Section
      title="Cases × combinations"
      description="Each cell is the case's verdict under that combination; open it for the transcript and checks."
      className="p-4"
    >
      {table.cases.length === 0 ? (
        <p className="text-sm text-slate-500">No case results yet.</p>
      ) : (
        <Table variant="plain" density="compact" caption="Verdict per case and combination" containerClassName="max-h-[70vh]">
          <TableHeader sticky>
            <TableRow>
              <TableHead>Case</TableHead>
              {combinations.map((c) => (
                <TableHead key={c.index} className="min-w-28 align-bottom">
                  <span className="block font-semibold">{shortName(c.index)}</span>
                  <span className="block text-xs font-normal text-slate-600 normal-case">{c.label}</span>
                  <span className="block text-xs font-normal text-slate-600 normal-case">{formatRate(c.pass_rate)}</span>
                  {c.run_id && c.run_number !== null && (
                    <Link
                      href={runHref(workspaceId, c.run_id)}
                      className="block text-xs font-normal text-indigo-600 normal-case hover:underline"
                      title={`Open the run of ${shortName(c.index)}`}
                    >
                      Run {runLabel({ number: c.run_number })}
                    </Link>
                  )}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {table.cases.map((row) => (
              <TableRow key={row.test_case_id ?? row.name}>
                <TableCell className="max-w-64 font-medium text-slate-800">{row.name}</TableCell>
                {combinations.map((c) => {
                  const cell = row.cells.find((x) => x.index === c.index);
                  if (!cell)
                    return (
                      <TableCell key={c.index} className="text-slate-400">
                        —
                      </TableCell>
                    );
                  const style = CELL_STYLES[cell.status] ?? CELL_STYLES.pending!;
                  const text = cell.total > 1 ? `${cell.passed}/${cell.total} passed` : style.label;
                  return (
                    <TableCell key={c.index} className={cn("p-0!", style.className)}>
                      {cell.case_result_id ? (
                        <Link
                          href={caseResultHref(workspaceId, cell.run_id, cell.case_result_id)}
                          className="block px-2 py-1.5 text-xs font-medium hover:underline"
                          aria-label={`${row.name} under ${shortName(c.index)} (${c.label}): ${text}`}
                        >
                          {text}
                        </Link>
                      ) : (
                        <span className="block px-2 py-1.5 text-xs">{text}</span>
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {table.truncated && (
        <p className="mt-2 text-xs text-slate-500">Only the first 500 cases are shown; each combination&apos;s run has them all.</p>
      )}
    </Section>
  );
}
