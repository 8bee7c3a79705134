import type { MatrixStatus } from "@/lib/matrices/schemas";
import { RUN_STATUS_LABELS, RUN_STATUS_TONES } from "@/components/runs/status-badges";

type Tone = (typeof RUN_STATUS_TONES)[keyof typeof RUN_STATUS_TONES];

/** Small formatters and paths of the matrix views (pure, client- and server-safe). */

export const isActiveMatrix = (status: MatrixStatus | undefined) => status === "pending" || status === "running";

/** Named and coloured like a run: it goes through the same lifecycle. */
export const MATRIX_STATUS_LABELS: Record<MatrixStatus, string> = RUN_STATUS_LABELS;

export const MATRIX_STATUS_TONES: Record<MatrixStatus, Tone> = RUN_STATUS_TONES;

/** A heat-map cell's verdict: its colour and the word shown with it (never colour alone). */
export const CELL_STYLES: Record<string, { label: string; className: string }> = {
  passed: { label: "Passed", className: "bg-green-100 text-green-900" },
  failed: { label: "Failed", className: "bg-red-100 text-red-900" },
  error: { label: "Error", className: "bg-orange-100 text-orange-900" },
  skipped: { label: "Skipped", className: "bg-slate-100 text-slate-600" },
  mixed: { label: "Mixed", className: "bg-amber-100 text-amber-900" },
  pending: { label: "Pending", className: "bg-white text-slate-500" },
  running: { label: "Running", className: "bg-blue-50 text-blue-800" },
};

export const formatRate = (n: number | null | undefined) => (n == null ? "—" : `${n.toFixed(1)} %`);
export const formatMs = (n: number | null | undefined) => (n == null ? "—" : `${Math.round(n)} ms`);
export const formatTokens = (n: number | null | undefined) => (n == null ? "—" : n.toLocaleString("en", { maximumFractionDigits: 1 }));
/** Costs are small: up to 4 significant digits, no currency (prices are in the team's currency). */
export const formatCost = (n: number | null | undefined) =>
  n == null ? "—" : n === 0 ? "0" : n.toLocaleString("en", { maximumSignificantDigits: 4, maximumFractionDigits: 6 });

/** "C1", "C2"…: the short name of a combination in tight places (chart axes, table headers). */
export const shortName = (index: number) => `C${index + 1}`;

export const matrixHref = (w: string, id: string) => `/w/${w}/matrices/${id}`;
export const suiteMatricesHref = (w: string, suiteId: string) => `/w/${w}/suites/${suiteId}/matrices`;
export const matrixDataUrl = (w: string, id: string) => `${matrixHref(w, id)}/data`;
export const runHref = (w: string, runId: string) => `/w/${w}/runs/${runId}`;
export const caseResultHref = (w: string, runId: string, caseResultId: string) => `${runHref(w, runId)}/cases/${caseResultId}`;
