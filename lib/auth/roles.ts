import { ForbiddenError } from "@/lib/errors";

export const ROLES = ["owner", "admin", "editor", "viewer"] as const;
export type Role = (typeof ROLES)[number];

const rank: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** Viewers read; editors author agents, suites and cases; admins manage members, model configurations and keys. */
export function hasRole(actual: Role, required: Role): boolean {
  return rank[actual] >= rank[required];
}

/** The role check every service starts with: Forbidden when the actor's role is below `minRole`. */
export function requireRole(ctx: WorkspaceContext, minRole: Role): void {
  if (!hasRole(ctx.role, minRole)) throw new ForbiddenError();
}

/** The lower of two roles (an API key acts with at most its creator's current role). */
export function lowerRole(a: Role, b: Role): Role {
  return rank[a] <= rank[b] ? a : b;
}

export const roleLabels: Record<Role, string> = {
  owner: "Owner",
  admin: "Admin",
  editor: "Editor",
  viewer: "Viewer",
};

/** Who is acting inside a workspace: a signed-in member or an API key. */
export type WorkspaceContext = {
  workspaceId: string;
  role: Role;
  userId: string | null;
  apiKeyId: string | null;
  /** An API key's scope: `ingest` keys authenticate only the OTLP traces endpoint (absent: full). */
  keyScope?: "full" | "ingest";
};
