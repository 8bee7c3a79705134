import { PageSkeleton, SkeletonCard } from "@/components/ui/page-skeleton";

export default function Loading() {
  return (
    <PageSkeleton label="Loading the matrix run…">
      <div className="grid gap-3 lg:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <SkeletonCard key={i} className="h-56" />
        ))}
      </div>
      <SkeletonCard className="h-64" />
    </PageSkeleton>
  );
}
