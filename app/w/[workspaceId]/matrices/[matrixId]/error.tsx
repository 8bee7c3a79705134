"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function MatrixError({ reset }: RouteErrorProps) {
  return <RouteError title="This matrix run could not be loaded." reset={reset} />;
}
