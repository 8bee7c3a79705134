import { connection } from "next/server";
import { loadSignInPage } from "@/lib/auth/loaders";
import { oidcSignInAction } from "@/lib/auth/actions";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Button } from "@/components/ui/button";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string }> }) {
  await connection();
  const { callbackUrl } = await searchParams;
  const page = await loadSignInPage();
  return (
    <AuthCard title="Sign in">
      <SignInForm callbackUrl={callbackUrl} />
      {page.oidcName && (
        <form action={oidcSignInAction} className="mt-4">
          <Button type="submit" variant="secondary" className="w-full">
            Continue with {page.oidcName}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
