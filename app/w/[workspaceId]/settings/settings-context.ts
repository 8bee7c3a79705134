import "server-only";
import { notFound } from "next/navigation";
import { pageContext } from "@/lib/auth/context";
import { NotFoundError } from "@/lib/errors";

/** The member's context for a settings page; outside the workspace it is a plain 404. */
export async function settingsContext(workspaceId: string) {
  return pageContext(workspaceId).catch((err: unknown) => {
    if (err instanceof NotFoundError) notFound();
    throw err;
  });
}
