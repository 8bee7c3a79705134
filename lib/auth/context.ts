import "server-only";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth";
import { UnauthorizedError } from "@/lib/errors";
import type { Role, WorkspaceContext } from "@/lib/auth/roles";
import { memberContext } from "@/lib/workspaces/service";

/** For server actions: the signed-in member's context, or a typed error. */
export async function actionContext(workspaceId: string, minRole: Role): Promise<WorkspaceContext> {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) throw new UnauthorizedError();
  return memberContext(userId, workspaceId, minRole);
}

/** For pages: redirects to sign-in when signed out; NotFound/Forbidden propagate to error pages. */
export async function pageContext(workspaceId: string, minRole: Role = "viewer"): Promise<WorkspaceContext> {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) redirect("/sign-in");
  return memberContext(userId, workspaceId, minRole);
}

export async function requireUserId(): Promise<string> {
  const session = await auth();
  const userId = session?.user?.id;
  if (!userId) redirect("/sign-in");
  return userId;
}
