"use client";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { signInInput, type SignInInput } from "@/lib/workspaces/schemas";
import { signInAction } from "@/lib/auth/actions";
import { FormError } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { FormInput } from "@/components/forms/form-input";

export function SignInForm({ callbackUrl }: { callbackUrl?: string }) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SignInInput>({ resolver: zodResolver(signInInput), defaultValues: { email: "", password: "" } });
  const { isSubmitting } = form.formState;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    const result = await signInAction(values, callbackUrl);
    if (result && !result.ok) setFormError(result.error);
  });
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <FormError message={formError} />
      <FormInput form={form} name="email" label="Email" type="email" autoComplete="email" />
      <FormInput form={form} name="password" label="Password" type="password" autoComplete="current-password" />
      <SubmitButton pending={isSubmitting} pendingLabel="Signing in…" className="w-full">
        Sign in
      </SubmitButton>
    </form>
  );
}
