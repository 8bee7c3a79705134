"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { ROLES, type Role } from "@/lib/auth/roles";
import { inviteInput, type InviteInput } from "@/lib/workspaces/schemas";
import { inviteMemberAction } from "@/lib/workspaces/settings-actions";
import { FormError } from "@/components/ui/field";
import { SubmitButton } from "@/components/ui/submit-button";
import { applyServerIssues } from "@/components/forms/server-issues";
import { CopyField } from "./copy-field";
import { RoleSelect } from "./role-select";
import { FormInput } from "@/components/forms/form-input";

type Outcome = { email: string; link: string };

export function InviteForm({ workspaceId, actorRole }: { workspaceId: string; actorRole: Role }) {
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const form = useForm<InviteInput>({ resolver: zodResolver(inviteInput), defaultValues: { email: "", role: "editor" } });
  const { errors, isSubmitting } = form.formState;
  const roles = ROLES.filter((r) => actorRole === "owner" || r !== "owner");

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setOutcome(null);
    const result = await inviteMemberAction(workspaceId, values);
    if (!result.ok) {
      const rest = applyServerIssues(form.setError, result.issues, ["email", "role"]);
      if (rest.length > 0 || result.issues.length === 0) setFormError(result.error);
      return;
    }
    const data = result.data;
    // The same answer whether or not the address has an account: an existing user signs in and joins.
    setOutcome({ email: data.invitation.email, link: `${window.location.origin}/invite/${data.token}` });
    form.reset({ email: "", role: values.role });
    router.refresh();
  });

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="flex flex-wrap items-start gap-3">
        <FormInput
          form={form}
          name="email"
          id="invite-email"
          label="Email"
          fieldClassName="min-w-64 flex-1"
          type="email"
          autoComplete="off"
        />
        <RoleSelect id="invite-role" roles={roles} error={errors.role?.message} {...form.register("role")} />
        <div className="pt-6">
          <SubmitButton pending={isSubmitting} pendingLabel="Inviting…">
            Invite member
          </SubmitButton>
        </div>
      </form>
      <FormError message={formError} />
      {outcome && (
        <div role="status" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <p>
            Invitation created for <strong>{outcome.email}</strong>. Assay does not send email: copy this link and send it yourself. It
            works once, expires in 7 days, and is shown only now. Treat it like a password: whoever opens it can join as this address (with
            an account, they sign in first and then join).
          </p>
          <CopyField label="Invite link" value={outcome.link} />
        </div>
      )}
    </div>
  );
}
