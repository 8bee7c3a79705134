import { Badge, Card } from "@/components/ui/card";

/** A case result's final response, scrollable by keyboard when long, or why there is none; the case view and its shared page show it alike. */
export function FinalResponseCard({ response, truncated }: { response: string | null; truncated: boolean }) {
  return (
    <Card className="space-y-2 p-5">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold">Final response</h2>
        {truncated && <Badge tone="amber">Truncated at 20,000 characters</Badge>}
      </div>
      {response ? (
        // Focusable so a long reply (e.g. one quoting a file) can be scrolled by keyboard.
        <p tabIndex={0} className="relative max-h-96 overflow-auto rounded-md bg-slate-50 p-3 text-sm break-words whitespace-pre-wrap">
          {response}
        </p>
      ) : (
        <p className="text-sm text-slate-500">The agent gave no final response.</p>
      )}
    </Card>
  );
}
