"use server";
import { AuthError } from "@auth/core/errors";
import { redirect } from "next/navigation";
import { signIn, signOut } from "@/lib/auth";
import { zodIssues } from "@/lib/errors";
import { actionError, type ActionResult } from "@/lib/actions/safe-action";
import { createFirstAdmin } from "@/lib/workspaces/service";
import { setupInput, signInInput, type SetupInput, type SignInInput } from "@/lib/workspaces/schemas";
import { TooManySignInAttempts } from "./callbacks";
import { requestIp, requestOrigin } from "./client-ip";
import { attemptKeys, requireAttempt, tooManyAttemptsMessage } from "./rate-limit";
import { safeCallbackPath } from "./redirect";

export async function setupAction(raw: SetupInput): Promise<ActionResult<{ workspaceId: string }>> {
  const parsed = setupInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Please fix the highlighted fields", issues: zodIssues(parsed.error) };
  let workspaceId: string;
  try {
    await requireAttempt(attemptKeys({ ip: await requestIp(), email: parsed.data.email }));
    const { workspace } = await createFirstAdmin(parsed.data);
    workspaceId = workspace.id;
    await signIn("credentials", { email: parsed.data.email, password: parsed.data.password, redirect: false });
  } catch (err) {
    return actionError(err);
  }
  redirect(`/w/${workspaceId}`);
}

/** The attempt is counted by the Credentials provider (lib/auth/callbacks.ts), which also serves the HTTP route. */
export async function signInAction(raw: SignInInput, callbackUrl?: string): Promise<ActionResult<null>> {
  const parsed = signInInput.safeParse(raw);
  if (!parsed.success) return { ok: false, error: "Please fix the highlighted fields", issues: zodIssues(parsed.error) };
  try {
    await signIn("credentials", { ...parsed.data, redirect: false });
  } catch (err) {
    if (err instanceof TooManySignInAttempts) return { ok: false, error: tooManyAttemptsMessage(err.retryAfterSeconds), issues: [] };
    if (err instanceof AuthError) return { ok: false, error: "Email or password is incorrect", issues: [] };
    return actionError(err);
  }
  redirect(safeCallbackPath(callbackUrl, await requestOrigin()));
}

export async function signOutAction() {
  await signOut({ redirectTo: "/sign-in" });
}

export async function oidcSignInAction() {
  await signIn("oidc", { redirectTo: "/" });
}
