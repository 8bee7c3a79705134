import { connection } from "next/server";
import { loadSetupPage } from "@/lib/auth/loaders";
import { AuthCard } from "@/components/auth/auth-card";
import { SetupForm } from "@/components/auth/setup-form";

export const metadata = { title: "Set up Assay" };

export default async function SetupPage() {
  await connection();
  await loadSetupPage();
  return (
    <AuthCard title="Welcome to Assay" subtitle="Create the first admin account and workspace.">
      <SetupForm />
    </AuthCard>
  );
}
