import "server-only";
import { redirect } from "next/navigation";
import { env, oidcEnabled } from "@/lib/env";
import { isSetupNeeded } from "@/lib/workspaces/service";

/** Page loaders for the setup and sign-in pages (no workspace yet). */

/** The first-run setup page: only while no user exists, else home. */
export async function loadSetupPage(): Promise<void> {
  if (!(await isSetupNeeded())) redirect("/");
}

/** The sign-in page: setup first on an empty install; the OIDC button's label when OIDC is configured. */
export async function loadSignInPage(): Promise<{ oidcName: string | null }> {
  if (await isSetupNeeded()) redirect("/setup");
  return { oidcName: oidcEnabled ? (env.AUTH_OIDC_NAME ?? "single sign-on") : null };
}
