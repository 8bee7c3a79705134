/** A calm notice for members whose role may read but not change something. */
export function ReadOnlyNotice({ children }: { children: React.ReactNode }) {
  return (
    <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
      {children}
    </p>
  );
}
