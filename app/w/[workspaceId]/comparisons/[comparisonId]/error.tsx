"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function ComparisonError({ reset }: RouteErrorProps) {
  return <RouteError title="This comparison could not be loaded." reset={reset} />;
}
