"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { acceptInviteInput, type AcceptInviteInput } from "@/lib/workspaces/schemas";
import { acceptInvitationAction } from "@/lib/workspaces/settings-actions";
import { FormError, InputField } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";
import { FormInput } from "@/components/forms/form-input";

/** Signed out: create the invited account (the email comes from the invitation). */
export function AcceptInviteForm({ token, email }: { token: string; email: string }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<AcceptInviteInput>({ resolver: zodResolver(acceptInviteInput), defaultValues: { token, name: "", password: "" } });
  const { isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await acceptInvitationAction(values);
    if (result && !result.ok) {
      applyServerIssues(form.setError, result.issues, ["name", "password"]);
      setFormError(result.error);
    }
  });
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormError message={formError} />
      <InputField id="invite-account-email" label="Email" type="email" value={email} readOnly disabled />
      <FormInput form={form} name="name" label="Your name" autoComplete="name" />
      <FormInput
        form={form}
        name="password"
        label="Password"
        required
        hint="At least 8 characters"
        type="password"
        autoComplete="new-password"
      />
      <SubmitButton pending={isSubmitting} pendingLabel="Creating account…" className="w-full">
        Create account and join
      </SubmitButton>
    </form>
  );
}
