"use client";
import { RouteError, type RouteErrorProps } from "@/components/ui/route-error";

export default function SuiteCalibrationError({ reset }: RouteErrorProps) {
  return <RouteError title="The judge's calibration could not be loaded." reset={reset} />;
}
