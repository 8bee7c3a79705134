/**
 * Comparisons, from the caller's side: create one (run both arms on the suite's cases, or pair
 * two completed runs: ./create.ts), read, list and page its pairs (./read.ts), cancel
 * (./cancel.ts), export the A/B engine's session document or CSV (./report.ts), and import such a
 * document back (./import.ts). One import path for the routes, actions and loaders. The executor
 * runs the arms; ./engine.ts records pairs and finishes the comparison. ./README.md maps the
 * whole feature.
 */
import "server-only";

export { createComparison } from "./create";
export { comparisonChartData, getComparison, getPair, listComparisons, listPairs } from "./read";
export { cancelComparison } from "./cancel";
export { comparisonReport } from "./report";
export { importComparison } from "./import";
