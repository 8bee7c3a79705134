import { PageSkeleton, SkeletonCard } from "@/components/ui/page-skeleton";

export default function Loading() {
  return (
    <PageSkeleton label="Loading the run…">
      <SkeletonCard className="h-32" />
      <SkeletonCard className="h-64" />
    </PageSkeleton>
  );
}
