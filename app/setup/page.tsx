import { redirect } from "next/navigation";
import { connection } from "next/server";
import { isSetupNeeded } from "@/lib/workspaces/service";
import { AuthCard } from "@/components/auth/auth-card";
import { SetupForm } from "@/components/auth/setup-form";

export const metadata = { title: "Set up Assay" };

export default async function SetupPage() {
  await connection();
  if (!(await isSetupNeeded())) redirect("/");
  return (
    <AuthCard title="Welcome to Assay" subtitle="Create the first admin account and workspace.">
      <SetupForm />
    </AuthCard>
  );
}
