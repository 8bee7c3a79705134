import Link from "next/link";
import { requireUserId } from "@/lib/auth/context";
import { loadAccountPage } from "@/lib/auth/loaders";
import { AuthCard } from "@/components/auth/auth-card";
import { ChangePasswordForm } from "@/components/auth/change-password-form";

export const metadata = { title: "Your account" };

export default async function AccountPage({ searchParams }: { searchParams: Promise<{ changed?: string }> }) {
  const { changed } = await searchParams;
  const account = await loadAccountPage(await requireUserId());
  return (
    <AuthCard title="Your account" subtitle={`Signed in as ${account.email}`}>
      {account.hasPassword ? (
        <ChangePasswordForm changed={changed === "1"} />
      ) : (
        <p className="text-sm text-slate-700">You sign in with single sign-on, so there is no Assay password to change.</p>
      )}
      <p className="mt-4 text-center text-sm">
        <Link href="/" className="text-indigo-700 hover:underline">
          Back to Assay
        </Link>
      </p>
    </AuthCard>
  );
}
