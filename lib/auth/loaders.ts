import "server-only";
import { redirect } from "next/navigation";
import { env, oidcEnabled } from "@/lib/env";
import { isSetupNeeded } from "@/lib/workspaces/service";
import { oidcRefusalMessages, type OidcRefusal } from "@/lib/users/oidc";
import { accountOf } from "@/lib/users/service";

/** Page loaders for the setup, sign-in and account pages (no workspace). */

/** The first-run setup page: only while no user exists, else home. */
export async function loadSetupPage(): Promise<void> {
  if (!(await isSetupNeeded())) redirect("/");
}

/**
 * The sign-in page: setup first on an empty install; the OIDC button's label when OIDC is
 * configured; and why a single sign-on was refused (`?error=oidc_<reason>` from the signIn
 * callback, or Auth.js's own `?error=…`).
 */
export async function loadSignInPage(error?: string): Promise<{ oidcName: string | null; error: string | null }> {
  if (await isSetupNeeded()) redirect("/setup");
  return { oidcName: oidcEnabled ? (env.AUTH_OIDC_NAME ?? "single sign-on") : null, error: signInErrorMessage(error) };
}

function signInErrorMessage(error: string | undefined): string | null {
  if (!error) return null;
  const reason = error.startsWith("oidc_") ? error.slice(5) : null;
  if (reason && reason in oidcRefusalMessages) return oidcRefusalMessages[reason as OidcRefusal];
  return "Signing in did not work. Please try again.";
}

/** The account page: the signed-in user's email and whether they have a password to change. */
export async function loadAccountPage(userId: string): Promise<{ email: string; hasPassword: boolean }> {
  const account = await accountOf(userId);
  if (!account) redirect("/sign-in");
  return { email: account.email, hasPassword: account.hasPassword };
}
