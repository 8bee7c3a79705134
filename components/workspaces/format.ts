/** Dates rendered the same on the server and in the browser (UTC), so hydration never differs. */
export function formatDate(d: Date | string | null | undefined): string {
  if (!d) return "—";
  return new Date(d).toISOString().slice(0, 10);
}

export function formatDateTime(d: Date | string | null | undefined): string {
  if (!d) return "—";
  return `${new Date(d).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
