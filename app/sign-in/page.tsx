import { connection } from "next/server";
import { loadSignInPage } from "@/lib/auth/loaders";
import { oidcSignInAction } from "@/lib/auth/actions";
import { AuthCard } from "@/components/auth/auth-card";
import { SignInForm } from "@/components/auth/sign-in-form";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/field";

export const metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ callbackUrl?: string; error?: string }> }) {
  await connection();
  const { callbackUrl, error } = await searchParams;
  const page = await loadSignInPage(error);
  return (
    <AuthCard title="Sign in">
      {page.error && (
        <div className="mb-4">
          <FormError message={page.error} />
        </div>
      )}
      {/* The sign-in action accepts callbackUrl only on this app's origin (lib/auth/redirect.ts). */}
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
