"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { roleLabels, type Role } from "@/lib/auth/roles";
import { apiKeyInput, type ApiKeyInput } from "@/lib/workspaces/schemas";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/api-keys/actions";
import { Field, FormError, Input, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { Badge, Card } from "@/components/ui/card";
import { applyServerIssues } from "@/components/forms/server-issues";
import { CopyField } from "./copy-field";
import { formatDate, formatDateTime } from "./format";

export type ApiKeyRow = {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

const KEY_ROLES = ["admin", "editor", "viewer"] as const;

export function ApiKeysPanel({ workspaceId, keys }: { workspaceId: string; keys: ApiKeyRow[] }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const form = useForm<ApiKeyInput>({ resolver: zodResolver(apiKeyInput), defaultValues: { name: "", role: "editor" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setCreated(null);
    const result = await createApiKeyAction(workspaceId, values);
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, result.issues, ["name", "role"]);
      if (rest.length > 0 || result.issues.length === 0) setFormError(result.error);
      return;
    }
    setCreated({ name: result.data.key.name, token: result.data.token });
    form.reset({ name: "", role: values.role });
    router.refresh();
  });

  return (
    <div className="space-y-6">
      <Card className="p-5">
        <h2 className="text-base font-semibold">Create an API key</h2>
        <p className="mt-1 text-sm text-slate-600">
          Keys authenticate calls to <code>/api/v1</code> as <code>Authorization: Bearer &lt;key&gt;</code> and act with the role you
          choose, in this workspace only.
        </p>
        <form onSubmit={onSubmit} noValidate className="mt-4 flex flex-wrap items-start gap-3">
          <Field id="key-name" label="Name" error={errors.name?.message} className="min-w-64 flex-1">
            <Input id="key-name" placeholder="e.g. CI pipeline" aria-invalid={!!errors.name} {...form.register("name")} />
          </Field>
          <Field id="key-role" label="Role" error={errors.role?.message}>
            <Select id="key-role" {...form.register("role")}>
              {KEY_ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabels[r]}
                </option>
              ))}
            </Select>
          </Field>
          <div className="pt-6">
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? "Creating…" : "Create API key"}
            </Button>
          </div>
        </form>
        <div className="mt-3">
          <FormError message={formError} />
        </div>
        {created && (
          <div role="status" className="mt-4 space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
            <p>
              <strong>Copy the key “{created.name}” now.</strong> This is the only time it is shown: Assay stores only a hash of it. If you
              lose it, revoke it and create a new one.
            </p>
            <CopyField label="New API key" value={created.token} />
            <Button variant="secondary" size="sm" onClick={() => setCreated(null)}>
              I have copied it
            </Button>
          </div>
        )}
      </Card>

      <div className="space-y-3">
        <FormError message={listError} />
        {keys.length === 0 ? (
          <p className="text-sm text-slate-500">No API keys yet.</p>
        ) : (
          <table className="w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-xs uppercase text-slate-500">
              <tr>
                <th className="py-2 pr-4 font-medium">Name</th>
                <th className="py-2 pr-4 font-medium">Role</th>
                <th className="py-2 pr-4 font-medium">Key</th>
                <th className="py-2 pr-4 font-medium">Created</th>
                <th className="py-2 pr-4 font-medium">Last used</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <tr key={k.id} className="border-b border-slate-100 last:border-0">
                  <td className="py-2 pr-4 font-medium text-slate-900">{k.name}</td>
                  <td className="py-2 pr-4">{roleLabels[k.role]}</td>
                  <td className="py-2 pr-4 font-mono text-xs text-slate-600">{k.prefix}…</td>
                  <td className="py-2 pr-4 text-slate-600">{formatDate(k.createdAt)}</td>
                  <td className="py-2 pr-4 text-slate-600">{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never"}</td>
                  <td className="py-2 text-right">
                    {k.revokedAt ? (
                      <Badge tone="red" title={`Revoked ${formatDateTime(k.revokedAt)}`}>
                        Revoked
                      </Badge>
                    ) : (
                      <ConfirmButton
                        variant="ghost"
                        size="sm"
                        title={`Revoke the API key “${k.name}”?`}
                        description="Every request made with this key is refused from now on. This cannot be undone."
                        confirmLabel="Revoke key"
                        aria-label={`Revoke ${k.name}`}
                        onConfirm={async () => {
                          setListError(null);
                          const result = await revokeApiKeyAction(workspaceId, { id: k.id });
                          if (!result.ok) setListError(result.error);
                          router.refresh();
                        }}
                      >
                        Revoke
                      </ConfirmButton>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </div>
  );
}
