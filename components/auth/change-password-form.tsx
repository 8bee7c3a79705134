"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { changePasswordInput, type ChangePasswordInput } from "@/lib/workspaces/schemas";
import { changePasswordAction } from "@/lib/auth/actions";
import { FormError } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";
import { FormInput } from "@/components/forms/form-input";

const FIELDS = ["currentPassword", "newPassword", "confirm"];

/** `changed`: a change succeeded and the action redirected here (see changePasswordAction); hidden again once a later attempt fails. */
export function ChangePasswordForm({ changed }: { changed: boolean }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordInput),
    defaultValues: { currentPassword: "", newPassword: "", confirm: "" },
  });
  const { isSubmitting, isSubmitSuccessful } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    let result: Awaited<ReturnType<typeof changePasswordAction>>;
    try {
      result = await changePasswordAction(values);
    } catch (err) {
      // Success ends in a redirect to this page (thrown here): clear the typed passwords.
      form.reset();
      throw err;
    }
    if (result && !result.ok) {
      const rest = applyServerIssues(form.setError, result.issues, FIELDS);
      if (rest.length > 0 || result.issues.length === 0) setFormError(result.error);
    }
  });
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-labelledby="change-password-heading">
      <h2 id="change-password-heading" className="text-sm font-semibold text-slate-900">
        Change password
      </h2>
      {changed && !isSubmitSuccessful && !formError && (
        <p role="status" className="rounded-md border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800">
          Your password was changed. Every other session was signed out.
        </p>
      )}
      <FormError message={formError} />
      <FormInput form={form} name="currentPassword" label="Current password" required type="password" autoComplete="current-password" />
      <FormInput
        form={form}
        name="newPassword"
        label="New password"
        required
        hint="At least 8 characters"
        type="password"
        autoComplete="new-password"
      />
      <FormInput form={form} name="confirm" label="Confirm new password" required type="password" autoComplete="new-password" />
      <SubmitButton pending={isSubmitting} pendingLabel="Changing…" className="w-full">
        Change password
      </SubmitButton>
    </form>
  );
}
