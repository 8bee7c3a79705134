"use client";
import { useRouter } from "next/navigation";
import { NamedOptions } from "@/components/ui/field";

/** `canCreate` false (ASSAY_WORKSPACE_CREATION=admins, not an owner/admin anywhere): the entry stays, disabled, saying why. */
export function WorkspaceSwitcher({
  current,
  workspaces,
  canCreate = true,
}: {
  current: string;
  workspaces: { id: string; name: string }[];
  canCreate?: boolean;
}) {
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
        <NamedOptions items={workspaces} />
        <option value="__new" disabled={!canCreate}>
          {canCreate ? "+ New workspace…" : "New workspace (owners and admins only)"}
        </option>
      </select>
    </label>
  );
}
