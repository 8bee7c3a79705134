import { SourceBadge, formatVariableValue } from "./source-badge";

type Resolved = { values: Record<string, unknown>; sources: Record<string, string> };

/** The variables model's ResolvedTestVariables as a small table: name, value and a source badge. */
export function ResolvedVariablesTable({
  resolved,
  label = "Resolved variables",
}: {
  resolved: Resolved | null | undefined;
  label?: string;
}) {
  const names = Object.keys(resolved?.values ?? {});
  if (!resolved || names.length === 0) return <p className="text-sm text-slate-500">No variables resolved.</p>;
  return (
    <table className="w-full text-left text-sm" aria-label={label}>
      <thead>
        <tr className="text-xs text-slate-500">
          <th className="py-1 pr-3 font-medium">Variable</th>
          <th className="py-1 pr-3 font-medium">Value</th>
          <th className="py-1 font-medium">Source</th>
        </tr>
      </thead>
      <tbody>
        {names.map((name) => (
          <tr key={name} className="border-t border-slate-100">
            <td className="py-1 pr-3 font-mono text-xs">{name}</td>
            <td className="py-1 pr-3 break-all">{formatVariableValue(resolved.values[name])}</td>
            <td className="py-1">
              <SourceBadge source={resolved.sources[name] ?? "?"} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
