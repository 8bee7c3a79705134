"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function SuiteMatricesError({ reset }: RouteErrorProps) {
  return <RouteError title="The matrix runs could not be loaded." reset={reset} />;
}
