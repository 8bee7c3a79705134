import Link from "next/link";
import { requireUserId } from "@/lib/auth/context";
import { loadAccountPage } from "@/lib/auth/loaders";
import { AuthCard } from "@/components/auth/auth-card";
import { ChangePasswordForm } from "@/components/auth/change-password-form";
import { UserShell } from "@/components/shell/user-shell";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";

export const metadata = { title: "Your account" };

function AccountBody({ hasPassword, changed }: { hasPassword: boolean; changed: boolean }) {
  return hasPassword ? (
    <ChangePasswordForm changed={changed} />
  ) : (
    <p className="text-sm text-slate-700">You sign in with single sign-on, so there is no Assay password to change.</p>
  );
}

export default async function AccountPage({ searchParams }: { searchParams: Promise<{ changed?: string }> }) {
  const { changed } = await searchParams;
  const userId = await requireUserId();
  const account = await loadAccountPage(userId);
  const body = <AccountBody hasPassword={account.hasPassword} changed={changed === "1"} />;
  // Without a workspace there is no shell to show: the account page keeps its own card.
  const fallback = (
    <AuthCard title="Your account" subtitle={`Signed in as ${account.email}`}>
      {body}
      <p className="mt-4 text-center text-sm">
        <Link href="/" className="text-indigo-700 hover:underline">
          Back to Assay
        </Link>
      </p>
    </AuthCard>
  );
  return (
    <UserShell userId={userId} fallback={fallback}>
      <div className="max-w-xl">
        <PageHeader title="Your account" description={`Signed in as ${account.email}`} />
        <Card className="p-5">{body}</Card>
      </div>
    </UserShell>
  );
}
