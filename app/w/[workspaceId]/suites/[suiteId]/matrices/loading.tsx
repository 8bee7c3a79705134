import { PageSkeleton, SkeletonCard } from "@/components/ui/page-skeleton";

export default function Loading() {
  return (
    <PageSkeleton label="Loading the matrix runs…" trail={false} titleWidth="w-72">
      <SkeletonCard className="h-64" />
    </PageSkeleton>
  );
}
