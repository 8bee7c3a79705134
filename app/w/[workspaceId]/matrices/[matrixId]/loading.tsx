export default function Loading() {
  return (
    <div className="space-y-4" aria-busy="true">
      <div className="h-5 w-64 animate-pulse rounded bg-slate-200" />
      <div className="h-8 w-96 animate-pulse rounded bg-slate-200" />
      <div className="grid gap-3 lg:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-56 animate-pulse rounded-lg bg-slate-100" />
        ))}
      </div>
      <div className="h-64 animate-pulse rounded-lg bg-slate-100" />
      <p className="sr-only">Loading the matrix run…</p>
    </div>
  );
}
