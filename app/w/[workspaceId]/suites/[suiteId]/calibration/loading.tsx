import { PageSkeleton, SkeletonCard } from "@/components/ui/page-skeleton";

export default function Loading() {
  return (
    <PageSkeleton label="Loading the judge's calibration…" titleWidth="w-72">
      <SkeletonCard className="h-64" />
    </PageSkeleton>
  );
}
