/**
 * Page and slide selection shared by the PDF and PowerPoint extractors: the execution model's `pages` are
 * 1-based, and asking for one beyond the document is an error rather than a silently shorter text.
 */
import { FileProcessingError } from "./errors";

/** The numbers to extract, in order: all of 1..total when `requested` is empty. */
export function selectNumbers(
  requested: number[] | null | undefined,
  total: number,
  what: { name: string; unit: "page" | "slide"; document: string },
): number[] {
  if (!requested || requested.length === 0) return Array.from({ length: total }, (_, i) => i + 1);
  const wanted = [...new Set(requested)].sort((a, b) => a - b);
  const missing = wanted.filter((n) => !Number.isInteger(n) || n < 1 || n > total);
  if (missing.length > 0) {
    const [unit, verb] = missing.length === 1 ? [what.unit, "does"] : [`${what.unit}s`, "do"];
    const has = `${total} ${what.unit}${total === 1 ? "" : "s"}`;
    throw new FileProcessingError(`${what.name}: ${unit} ${missing.join(", ")} ${verb} not exist: the ${what.document} has ${has}`);
  }
  return wanted;
}
