import { redirect } from "next/navigation";
import { connection } from "next/server";
import { isSetupNeeded } from "@/lib/workspaces/service";
import { oidcEnabled, env } from "@/lib/env";
import { oidcSignInAction } from "@/lib/workspaces/actions";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Button } from "@/components/ui/button";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  await connection();
  if (await isSetupNeeded()) redirect("/setup");
  const { callbackUrl } = await searchParams;
  return (
    <AuthCard title="Sign in">
      <SignInForm callbackUrl={callbackUrl} />
      {oidcEnabled && (
        <form action={oidcSignInAction} className="mt-4">
          <Button type="submit" variant="secondary" className="w-full">
            Continue with {env.AUTH_OIDC_NAME ?? "single sign-on"}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
