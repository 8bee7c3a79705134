"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function SuiteComparisonsError({ reset }: RouteErrorProps) {
  return <RouteError title="The comparisons could not be loaded." reset={reset} />;
}
