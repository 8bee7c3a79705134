"use server";
import { AuthError } from "@auth/core/errors";
import { redirect } from "next/navigation";
import { currentUserId, signIn, signOut } from "@/lib/auth";
import { UnauthorizedError, zodIssues } from "@/lib/errors";
import { actionError, type ActionResult } from "@/lib/actions/safe-action";
import { createFirstAdmin } from "@/lib/workspaces/service";
import { changePassword, getUser } from "@/lib/users/service";
import {
  changePasswordInput,
  setupInput,
  signInInput,
  type ChangePasswordInput,
  type SetupInput,
  type SignInInput,
} from "@/lib/workspaces/schemas";
import { TooManySignInAttempts } from "./callbacks";
import { requestIp, requestOrigin } from "./client-ip";
import { attemptKeys, refundAttempt, requireAttempt, tooManyAttemptsMessage } from "./rate-limit";
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

/**
 * The signed-in user's password change. Guessing the current password is limited like sign-in
 * (same counters: a stolen session gets no extra tries); a correct one gives its attempt back.
 * The change bumps the user's session version, which ends every session including this one, so
 * this session signs in again with the new password: the fresh token carries the new version.
 * (Auth.js's `unstable_update` could not do it safely: the session endpoint that serves it also
 * takes updates from the browser, so accepting a new version there would revive stale sessions.)
 * It ends in a redirect: a page re-rendered in this same request would still read the old cookie
 * through headers() and count as signed out; the redirect is rendered with the new one.
 */
export async function changePasswordAction(raw: ChangePasswordInput): Promise<ActionResult<null>> {
  try {
    const userId = await currentUserId();
    const user = userId ? await getUser(userId) : null;
    if (!userId || !user) throw new UnauthorizedError();
    const parsed = changePasswordInput.safeParse(raw);
    if (!parsed.success) return { ok: false, error: "Please fix the highlighted fields", issues: zodIssues(parsed.error) };
    const keys = attemptKeys({ ip: await requestIp(), email: user.email });
    await requireAttempt(keys);
    const { email } = await changePassword(userId, parsed.data);
    await refundAttempt(keys);
    await signIn("credentials", { email, password: parsed.data.newPassword, redirect: false });
  } catch (err) {
    return actionError(err);
  }
  redirect("/account?changed=1");
}

export async function signOutAction() {
  await signOut({ redirectTo: "/sign-in" });
}

export async function oidcSignInAction() {
  await signIn("oidc", { redirectTo: "/" });
}
