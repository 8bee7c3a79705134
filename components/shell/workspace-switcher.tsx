"use client";
import { useRouter } from "next/navigation";

export function WorkspaceSwitcher({ current, workspaces }: { current: string; workspaces: { id: string; name: string }[] }) {
  const router = useRouter();
  return (
    <label className="block text-xs text-slate-500">
      Workspace
      <select
        aria-label="Workspace"
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900"
        value={current}
        onChange={(e) => {
          if (e.target.value === "__new") router.push("/workspaces/new");
          else router.push(`/w/${e.target.value}`);
        }}
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
        <option value="__new">+ New workspace…</option>
      </select>
    </label>
  );
}
