import { useCallback, useState } from "react";

/**
 * The rows a table has selected for a bulk action, by id: `toggle` flips one (or sets it with
 * `on`), `select` replaces the whole selection (`[]` clears it). Both keep their identity across
 * renders, like a state setter.
 */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set<string>());
  const toggle = useCallback(
    (id: string, on?: boolean) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (on ?? !prev.has(id)) next.add(id);
        else next.delete(id);
        return next;
      }),
    [],
  );
  const select = useCallback((ids: Iterable<string>) => setSelected(new Set(ids)), []);
  return { selected, toggle, select };
}
