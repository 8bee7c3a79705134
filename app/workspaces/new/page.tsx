import Link from "next/link";
import { requireUserId } from "@/lib/auth/context";
import { AuthCard } from "@/components/auth/auth-card";
import { NewWorkspaceForm } from "@/components/workspaces/new-workspace-form";

export const metadata = { title: "New workspace" };

export default async function NewWorkspacePage() {
  await requireUserId();
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
