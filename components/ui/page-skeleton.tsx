import { cn } from "./cn";

/**
 * A text-sized placeholder bar (a trail, a title): `className` gives its size. It never grows
 * past its container, so a title bar sized for a desktop does not scroll a phone sideways.
 */
export function SkeletonBlock({ className }: { className: string }) {
  return <div className={cn("max-w-full animate-pulse rounded bg-slate-200", className)} />;
}

/** A card-sized placeholder: `className` gives its height (and width where it is not full). */
export function SkeletonCard({ className }: { className: string }) {
  return <div className={cn("max-w-full animate-pulse rounded-lg bg-slate-100", className)} />;
}

/**
 * What a page's `loading.tsx` shows while its server component loads: the trail and title bars
 * (leave `trail` off where the page has no breadcrumbs), the page's own `children` placeholders,
 * and `label` for screen readers ("Loading the run…").
 */
export function PageSkeleton({
  label,
  trail = true,
  titleWidth = "w-96",
  children,
}: {
  label: string;
  trail?: boolean;
  titleWidth?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="space-y-4" aria-busy="true">
      {trail && <SkeletonBlock className="h-5 w-64" />}
      <SkeletonBlock className={cn("h-8", titleWidth)} />
      {children}
      <p className="sr-only">{label}</p>
    </div>
  );
}
