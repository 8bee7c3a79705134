"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { roleLabels, type Role } from "@/lib/auth/roles";
import { API_KEY_EXPIRY_DAYS, apiKeyInput, type ApiKeyInput } from "@/lib/workspaces/schemas";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/api-keys/actions";
import { Field, FormError, Options, Select } from "@/components/ui/field";
import { Button } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { RowActionButton } from "@/components/ui/action-button";
import { Badge, Section } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";
import { applyServerIssues } from "@/components/forms/server-issues";
import { CopyField } from "./copy-field";
import { RoleSelect } from "./role-select";
import { formatDate, formatDateTime } from "./format";
import { FormInput } from "@/components/forms/form-input";

export type ApiKeyRow = {
  id: string;
  name: string;
  role: Role;
  /** ingest: the key only sends traces (OTLP). */
  scope: "full" | "ingest";
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  /** Decided by the server when the page loads (lib/api-keys/loaders.ts). */
  expired: boolean;
  /** The role it acts with now: at most its creator's current role; null once the creator left. */
  effectiveRole: Role | null;
};

const expiryLabels: Record<(typeof API_KEY_EXPIRY_DAYS)[number], string> = {
  never: "Never",
  "7": "In 7 days",
  "30": "In 30 days",
  "90": "In 90 days",
  "365": "In 1 year",
};

const KEY_ROLES = ["admin", "editor", "viewer"] as const;

const scopeLabels = { full: "Full API (with its role)", ingest: "Ingest only: sends traces" } as const;

const revokeConfirm = (name: string) => ({
  title: `Revoke the API key “${name}”?`,
  description: "Every request made with this key is refused from now on. This cannot be undone.",
  confirmLabel: "Revoke key",
});

export function ApiKeysPanel({ workspaceId, keys }: { workspaceId: string; keys: ApiKeyRow[] }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const form = useForm<ApiKeyInput>({
    resolver: zodResolver(apiKeyInput),
    defaultValues: { name: "", role: "editor", scope: "full", expiresInDays: "90" },
  });
  const { errors, isSubmitting } = form.formState;
  const scope = form.watch("scope");

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setCreated(null);
    const result = await createApiKeyAction(workspaceId, values);
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, result.issues, ["name", "role", "scope", "expiresInDays"]);
      if (rest.length > 0 || result.issues.length === 0) setFormError(result.error);
      return;
    }
    setCreated({ name: result.data.key.name, token: result.data.token });
    form.reset({ name: "", role: values.role, scope: values.scope, expiresInDays: values.expiresInDays });
    router.refresh();
  });

  return (
    <div className="space-y-6">
      <Section
        title="Create an API key"
        description={
          <>
            Keys authenticate calls to <code>/api/v1</code> as <code>Authorization: Bearer &lt;key&gt;</code> and act with the role you
            choose, in this workspace only. An ingest-only key can do one thing: send an agent&apos;s OpenTelemetry traces to{" "}
            <code>/api/v1/otlp/v1/traces</code> (the Traffic page). A key stops working when it expires, when it is revoked, or when the
            member who created it leaves or is removed from the workspace.
          </>
        }
      >
        <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-3">
          <FormInput form={form} name="name" id="key-name" label="Name" fieldClassName="min-w-64 flex-1" placeholder="e.g. CI pipeline" />
          <Field id="key-scope" label="Can" error={errors.scope?.message}>
            <Select id="key-scope" {...form.register("scope")}>
              <Options values={["full", "ingest"] as const} labels={scopeLabels} />
            </Select>
          </Field>
          {scope === "full" && <RoleSelect id="key-role" roles={KEY_ROLES} error={errors.role?.message} {...form.register("role")} />}
          <Field id="key-expiry" label="Expires" error={errors.expiresInDays?.message}>
            <Select id="key-expiry" {...form.register("expiresInDays")}>
              <Options values={API_KEY_EXPIRY_DAYS} labels={expiryLabels} />
            </Select>
          </Field>
          <div className="pt-6">
            <SubmitButton pending={isSubmitting} pendingLabel="Creating…">
              Create API key
            </SubmitButton>
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
      </Section>

      {keys.length === 0 ? (
        <p className="text-sm text-slate-500">No API keys yet.</p>
      ) : (
        <Table variant="plain">
          <TableHeader columns={["Name", "Role", "Key", "Created", "Expires", "Last used", { label: "Actions", srOnly: true }]} />
          <TableBody>
            {keys.map((k) => (
              <TableRow key={k.id}>
                <TableCell className="font-medium text-slate-900">{k.name}</TableCell>
                <TableCell>
                  <KeyRole apiKey={k} />
                </TableCell>
                <TableCell className="font-mono text-xs text-slate-600">{k.prefix}…</TableCell>
                <TableCell className="text-slate-600">{formatDate(k.createdAt)}</TableCell>
                <TableCell className="text-slate-600">{k.expiresAt ? formatDate(k.expiresAt) : "Never"}</TableCell>
                <TableCell className="text-slate-600">{k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never"}</TableCell>
                <TableCell className="text-right">
                  <KeyAction workspaceId={workspaceId} apiKey={k} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

/**
 * The key's own role, and, when it acts with less, the role it acts with and why: a key never
 * acts above its creator's current role.
 */
function KeyRole({ apiKey }: { apiKey: ApiKeyRow }) {
  const inactive = apiKey.revokedAt !== null || apiKey.expired;
  if (apiKey.scope === "ingest") return <>Ingest only</>;
  if (inactive || apiKey.effectiveRole === apiKey.role) return <>{roleLabels[apiKey.role]}</>;
  return (
    <span className="flex flex-col gap-0.5">
      <span>{roleLabels[apiKey.role]}</span>
      <span className="text-xs text-amber-800">
        {apiKey.effectiveRole
          ? `Acts as ${roleLabels[apiKey.effectiveRole]}: its creator is now ${articled(apiKey.effectiveRole)}`
          : "Refused: its creator is no longer a member"}
      </span>
    </span>
  );
}

const articled = (role: Role) => `${role === "owner" || role === "admin" ? "an" : "a"} ${role}`;

/** "Revoked" for a revoked key, "Expired" for an expired one, else its Revoke button. */
function KeyAction({ workspaceId, apiKey }: { workspaceId: string; apiKey: ApiKeyRow }) {
  if (apiKey.revokedAt) {
    return (
      <Badge tone="red" title={`Revoked ${formatDateTime(apiKey.revokedAt)}`}>
        Revoked
      </Badge>
    );
  }
  if (apiKey.expired && apiKey.expiresAt) {
    return (
      <Badge tone="red" title={`Expired ${formatDateTime(apiKey.expiresAt)}`}>
        Expired
      </Badge>
    );
  }
  return (
    <RowActionButton
      aria-label={`Revoke ${apiKey.name}`}
      confirm={revokeConfirm(apiKey.name)}
      action={() => revokeApiKeyAction(workspaceId, { id: apiKey.id })}
    >
      Revoke
    </RowActionButton>
  );
}
