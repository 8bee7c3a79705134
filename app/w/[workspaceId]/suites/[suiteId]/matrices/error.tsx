"use client";
import { Button } from "@/components/ui/button";

export default function SuiteMatricesError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 p-6 text-sm text-red-800">
      <p className="font-medium">The matrix runs could not be loaded.</p>
      <p className="mt-1">Something went wrong on our side. Try again in a moment.</p>
      <Button className="mt-4" variant="secondary" onClick={() => reset()}>
        Try again
      </Button>
    </div>
  );
}
