"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { setupInput, type SetupInput } from "@/lib/workspaces/schemas";
import { setupAction } from "@/lib/auth/actions";
import { Field, FormError, Input } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";

export function SetupForm() {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SetupInput>({
    resolver: zodResolver(setupInput),
    defaultValues: { name: "", email: "", password: "", workspaceName: "" },
  });
  const { errors, isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await setupAction(values);
    if (result && !result.ok) {
      applyServerIssues(form.setError, result.issues);
      setFormError(result.error);
    }
  });
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <FormError message={formError} />
      <Field id="name" label="Your name" error={errors.name?.message}>
        <Input id="name" autoComplete="name" {...form.register("name")} />
      </Field>
      <Field id="email" label="Email" required error={errors.email?.message}>
        <Input id="email" type="email" autoComplete="email" aria-invalid={!!errors.email} {...form.register("email")} />
      </Field>
      <Field id="password" label="Password" required hint="At least 8 characters" error={errors.password?.message}>
        <Input id="password" type="password" autoComplete="new-password" aria-invalid={!!errors.password} {...form.register("password")} />
      </Field>
      <Field id="workspaceName" label="Workspace name" required hint="Usually your team or product" error={errors.workspaceName?.message}>
        <Input id="workspaceName" aria-invalid={!!errors.workspaceName} {...form.register("workspaceName")} />
      </Field>
      <SubmitButton pending={isSubmitting} pendingLabel="Creating…" className="w-full">
        Create admin and workspace
      </SubmitButton>
    </form>
  );
}
