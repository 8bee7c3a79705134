"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { workspaceInput, type WorkspaceInput } from "@/lib/workspaces/schemas";
import { createWorkspaceAction } from "@/lib/workspaces/settings-actions";
import { FormError } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";
import { FormInput } from "@/components/forms/form-input";

export function NewWorkspaceForm() {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<WorkspaceInput>({ resolver: zodResolver(workspaceInput), defaultValues: { name: "" } });
  const { isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await createWorkspaceAction(values);
    if (result && !result.ok) {
      applyServerIssues(form.setError, result.issues);
      setFormError(result.error);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      <FormInput form={form} name="name" label="Workspace name" required hint="Usually a team or a product" />
      <SubmitButton pending={isSubmitting} pendingLabel="Creating…" className="w-full">
        Create workspace
      </SubmitButton>
    </form>
  );
}
