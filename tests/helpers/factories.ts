import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { hashToken } from "@/lib/crypto";
import type { Role, WorkspaceContext } from "@/lib/auth/roles";

const uid = () => randomBytes(4).toString("hex");

/** A workspace with one member of the given role; returns a member context. */
export async function makeWorkspace(role: Role = "owner", name = `ws-${uid()}`) {
  const user = await db.user.create({ data: { email: `${uid()}@example.test`, name: "Tester" } });
  const workspace = await db.workspace.create({
    data: { name, memberships: { create: { userId: user.id, role } } },
  });
  const ctx: WorkspaceContext = { workspaceId: workspace.id, role, userId: user.id, apiKeyId: null };
  return { user, workspace, ctx };
}

/** Adds a user with `role` to an existing workspace. */
export async function addMember(workspaceId: string, role: Role) {
  const user = await db.user.create({ data: { email: `${uid()}@example.test` } });
  await db.membership.create({ data: { workspaceId, userId: user.id, role } });
  const ctx: WorkspaceContext = { workspaceId, role, userId: user.id, apiKeyId: null };
  return { user, ctx };
}

/** Registers an API key with `role` and returns its bearer token. */
export async function makeApiKey(workspaceId: string, role: Role = "admin"): Promise<string> {
  const token = `test_${randomBytes(24).toString("hex")}`;
  await db.apiKey.create({
    data: { workspaceId, name: `key-${uid()}`, role, prefix: token.slice(0, 8), keyHash: hashToken(token) },
  });
  return token;
}
