import Link from "next/link";
import { connection } from "next/server";
import { roleLabels } from "@/lib/auth/roles";
import { loadInvitePage } from "@/lib/workspaces/loaders";
import { AuthCard } from "@/components/auth/auth-card";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { buttonClass } from "@/components/ui/button";
import { AcceptInviteForm } from "@/components/workspaces/accept-invite-form";
import { JoinInviteButton } from "@/components/workspaces/join-invite-button";

export const metadata = { title: "Invitation" };

const problems = {
  invalid: "This invite link is not valid. It may have been revoked, or mistyped. Ask an admin of the workspace for a new one.",
  expired: "This invite link has expired (links work for 7 days). Ask an admin of the workspace for a new one.",
  used: "This invite link was already used. If it was you, sign in to open the workspace.",
} as const;

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  await connection();
  const { token } = await params;
  const page = await loadInvitePage(token);
  if (page.view === "unavailable") {
    return (
      <AuthCard title="Invitation unavailable">
        <p className="text-sm text-slate-700">{problems[page.reason]}</p>
        <p className="mt-4 text-sm">
          <Link href="/sign-in" className="text-indigo-700 hover:underline">
            Go to sign in
          </Link>
        </p>
      </AuthCard>
    );
  }

  const { invitation } = page;
  const title = `Join ${invitation.workspace.name}`;
  const subtitle = `You are invited as ${roleLabels[invitation.role].toLowerCase()} with ${invitation.email}.`;

  if (page.view === "signed-out") {
    // One page whether or not the address has an account: the link must not tell who has one.
    return (
      <AuthCard title={title} subtitle={subtitle}>
        <section aria-labelledby="invite-sign-in">
          <h2 id="invite-sign-in" className="text-sm font-semibold text-slate-900">
            Already have an account with {invitation.email}?
          </h2>
          <Link
            href={`/sign-in?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`}
            className={`${buttonClass("secondary")} mt-2 w-full`}
          >
            Sign in to join
          </Link>
        </section>
        <section aria-labelledby="invite-create" className="mt-6 border-t border-slate-200 pt-5">
          <h2 id="invite-create" className="mb-3 text-sm font-semibold text-slate-900">
            New to Assay? Create your account
          </h2>
          <AcceptInviteForm token={token} email={invitation.email} />
        </section>
      </AuthCard>
    );
  }

  if (page.view === "wrong-user") {
    return (
      <AuthCard title={title} subtitle={subtitle}>
        <p className="text-sm text-slate-700">
          This invitation is for <strong>{invitation.email}</strong>, but you are signed in as <strong>{page.userEmail}</strong>. Sign out,
          then open this link again to join with the invited address.
        </p>
        <SignOutButton />
      </AuthCard>
    );
  }

  return (
    <AuthCard title={title} subtitle={subtitle}>
      <JoinInviteButton token={token} workspaceName={invitation.workspace.name} />
    </AuthCard>
  );
}
