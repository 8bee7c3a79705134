import Link from "next/link";
import { requireUserId } from "@/lib/auth/context";
import { loadNewWorkspacePage } from "@/lib/workspaces/loaders";
import { AuthCard } from "@/components/auth/auth-card";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { NewWorkspaceForm } from "@/components/workspaces/new-workspace-form";

export const metadata = { title: "New workspace" };

export default async function NewWorkspacePage() {
  const page = await loadNewWorkspacePage(await requireUserId());
  if (!page.canCreate) {
    // Reached from the home redirect too (no workspace yet), so "back" could loop: offer sign-out.
    return (
      <AuthCard title="Create a workspace">
        <p className="text-sm text-slate-700">{page.reason}</p>
        <SignOutButton />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Create a workspace" subtitle="You become its owner and can invite your team from its settings.">
      <NewWorkspaceForm />
      <p className="mt-4 text-center text-sm">
        <Link href="/" className="text-indigo-700 hover:underline">
          Cancel
        </Link>
      </p>
    </AuthCard>
  );
}
