import { beforeEach, describe, expect, it, vi } from "vitest";

// Server actions read the session through next-auth; here a test decides who is signed in.
const session = vi.hoisted(() => ({ userId: null as string | null }));
const signIn = vi.hoisted(() => vi.fn(async () => undefined));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
  currentUserId: async () => session.userId,
  signIn,
  signOut: vi.fn(),
}));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));

import { db } from "@/lib/db";
import {
  acceptInvitationAction,
  changeMemberRoleAction,
  createWorkspaceAction,
  inviteMemberAction,
  removeMemberAction,
  revokeInvitationAction,
  updateWorkspaceSettingsAction,
} from "@/lib/workspaces/settings-actions";
import { createApiKeyAction, revokeApiKeyAction } from "@/lib/api-keys/actions";
import { createApiKey } from "@/lib/api-keys/service";
import { inviteMember } from "@/lib/workspaces/invitations";
import { canCreateWorkspace } from "@/lib/workspaces/creation";
import { loadNewWorkspacePage, loadWorkspaceShell } from "@/lib/workspaces/loaders";
import { addMember, makeWorkspace } from "../helpers/factories";

beforeEach(() => {
  session.userId = null;
  signIn.mockClear();
});

const redirectTarget = (err: unknown) => String((err as { digest?: string }).digest ?? "").split(";")[2];

describe("settings actions", () => {
  it("refuse signed-out callers and members below admin", async () => {
    const { workspace } = await makeWorkspace("owner");
    const editor = await addMember(workspace.id, "editor");
    const input = { name: "X", maxTurnsCap: 5 };
    expect(await updateWorkspaceSettingsAction(workspace.id, input)).toMatchObject({ ok: false, error: "Authentication required" });
    session.userId = editor.user.id;
    expect(await updateWorkspaceSettingsAction(workspace.id, input)).toMatchObject({ ok: false, error: "Your role does not allow this" });
    expect(await createApiKeyAction(workspace.id, { name: "k", role: "viewer" })).toMatchObject({ ok: false });
    expect(await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } })).toMatchObject({ maxTurnsCap: 30 });
  });

  it("save workspace settings for admins and report field issues", async () => {
    const { workspace, user } = await makeWorkspace("admin");
    session.userId = user.id;
    const bad = await updateWorkspaceSettingsAction(workspace.id, { name: "", maxTurnsCap: "0" });
    expect(bad).toMatchObject({
      ok: false,
      issues: expect.arrayContaining([expect.objectContaining({ path: "name" }), { path: "maxTurnsCap", message: "At least 1" }]),
    });
    // Network access is an instance setting (ASSAY_ALLOW_PRIVATE_NETWORKS): the field an old form sent is ignored.
    const stale = { allowPrivateNetworks: true } as object;
    const good = await updateWorkspaceSettingsAction(workspace.id, { name: "Renamed", maxTurnsCap: "45", ...stale });
    expect(good).toMatchObject({ ok: true, data: { name: "Renamed" } });
    const row = await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } });
    expect(row).toMatchObject({ name: "Renamed", maxTurnsCap: 45 });
    expect(row).not.toHaveProperty("allowPrivateNetworks");
  });

  it("never reach another workspace: every admin action on B answers not found for a member of A", async () => {
    const a = await makeWorkspace("owner");
    const b = await makeWorkspace("owner", "Workspace B");
    const bViewer = await addMember(b.workspace.id, "viewer");
    const { key } = await createApiKey(b.ctx, { name: "B key", role: "admin" });
    const inv = await inviteMember(b.ctx, { email: "someone@example.test", role: "viewer" });
    if (inv.kind !== "invited") throw new Error("expected an invitation");
    session.userId = a.user.id;

    const results = [
      await updateWorkspaceSettingsAction(b.workspace.id, { name: "Hijacked", maxTurnsCap: 1 }),
      await inviteMemberAction(b.workspace.id, { email: "intruder@example.test", role: "admin" }),
      await changeMemberRoleAction(b.workspace.id, { userId: bViewer.user.id, role: "admin" }),
      await removeMemberAction(b.workspace.id, { userId: bViewer.user.id }),
      await revokeInvitationAction(b.workspace.id, { id: inv.invitation.id }),
      await createApiKeyAction(b.workspace.id, { name: "intruder", role: "admin" }),
      await revokeApiKeyAction(b.workspace.id, { id: key.id }),
      // Addressing B's rows from A's own workspace is not found either.
      await changeMemberRoleAction(a.workspace.id, { userId: bViewer.user.id, role: "admin" }),
      await revokeApiKeyAction(a.workspace.id, { id: key.id }),
      await revokeInvitationAction(a.workspace.id, { id: inv.invitation.id }),
    ];
    for (const r of results) expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/not found/) });

    expect(await db.workspace.findUniqueOrThrow({ where: { id: b.workspace.id } })).toMatchObject({ name: "Workspace B", maxTurnsCap: 30 });
    expect(await db.membership.findMany({ where: { workspaceId: b.workspace.id }, select: { userId: true, role: true } })).toHaveLength(2);
    expect((await db.membership.findFirstOrThrow({ where: { workspaceId: b.workspace.id, userId: bViewer.user.id } })).role).toBe("viewer");
    expect(await db.apiKey.count({ where: { workspaceId: b.workspace.id } })).toBe(1);
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeNull();
    expect(await db.invitation.count({ where: { workspaceId: b.workspace.id } })).toBe(1);
  });

  it("create an API key whose token is returned once and never listed", async () => {
    const { workspace, user } = await makeWorkspace("admin");
    session.userId = user.id;
    const result = await createApiKeyAction(workspace.id, { name: "CI", role: "editor" });
    if (!result.ok) throw new Error(result.error);
    expect(result.data.token).toMatch(/^assay_/);
    expect(result.data.key).toMatchObject({ name: "CI", role: "editor", prefix: result.data.token.slice(0, 12) });
    expect(JSON.stringify(result.data.key)).not.toContain(result.data.token);
    expect(await createApiKeyAction(workspace.id, { name: "x", role: "owner" as "admin" })).toMatchObject({
      ok: false,
      issues: [expect.objectContaining({ path: "role" })],
    });
  });
});

describe("creating a workspace", () => {
  it("makes the creator its owner and redirects to it", async () => {
    const { user } = await makeWorkspace("admin");
    session.userId = user.id;
    expect(await createWorkspaceAction({ name: "  " })).toMatchObject({ ok: false, issues: [expect.objectContaining({ path: "name" })] });
    const err = await createWorkspaceAction({ name: "Second team" }).catch((e: unknown) => e);
    const ws = await db.workspace.findFirstOrThrow({ where: { name: "Second team" } });
    expect(redirectTarget(err)).toBe(`/w/${ws.id}`);
    const m = await db.membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId: ws.id, userId: user.id } } });
    expect(m.role).toBe("owner");
  });

  it("is for owners and admins of a workspace by default (ASSAY_WORKSPACE_CREATION=admins)", async () => {
    const viewer = await makeWorkspace("viewer");
    const loner = await db.user.create({ data: { email: "loner@example.test" } });
    for (const userId of [viewer.user.id, loner.id]) {
      session.userId = userId;
      expect(await createWorkspaceAction({ name: "Not allowed" })).toMatchObject({
        ok: false,
        error: expect.stringContaining("only owners and admins of an existing workspace can create workspaces"),
      });
      expect(await canCreateWorkspace(userId)).toBe(false);
      expect(await canCreateWorkspace(userId, "anyone")).toBe(true);
    }
    expect(await db.workspace.count({ where: { name: "Not allowed" } })).toBe(0);
    const owner = await makeWorkspace("owner");
    expect(await canCreateWorkspace(owner.user.id)).toBe(true);
    expect(await loadNewWorkspacePage(viewer.user.id)).toMatchObject({ canCreate: false, reason: expect.any(String) });
    expect(await loadNewWorkspacePage(owner.user.id)).toEqual({ canCreate: true });
  });

  it("shows the shell: the workspace, the member's workspaces by name with their roles, their email and whether they may create one", async () => {
    const viewer = await makeWorkspace("viewer", "B team");
    const second = await makeWorkspace("owner", "A team");
    await db.membership.create({ data: { workspaceId: second.workspace.id, userId: viewer.user.id, role: "editor" } });
    await makeWorkspace("owner", "Not theirs");
    const shell = await loadWorkspaceShell(viewer.ctx);
    expect(shell).toEqual({
      workspace: { id: viewer.workspace.id, name: "B team", maxTurnsCap: 30, timeZone: "UTC" },
      workspaces: [
        { id: second.workspace.id, name: "A team", role: "editor" },
        { id: viewer.workspace.id, name: "B team", role: "viewer" },
      ],
      role: "viewer",
      userEmail: viewer.user.email,
      canCreateWorkspace: false,
      instanceAdmin: false,
    });
    await db.membership.update({
      where: { workspaceId_userId: { workspaceId: second.workspace.id, userId: viewer.user.id } },
      data: { role: "admin" },
    });
    expect((await loadWorkspaceShell(viewer.ctx)).canCreateWorkspace).toBe(true);
    await expect(loadWorkspaceShell({ ...viewer.ctx, workspaceId: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow("not found");
  });

  it("needs a signed-in user", async () => {
    expect(await createWorkspaceAction({ name: "Nobody's" })).toMatchObject({ ok: false, error: "Sign in first" });
    expect(await db.workspace.count({ where: { name: "Nobody's" } })).toBe(0);
  });
});

describe("accepting an invitation from the invite page", () => {
  it("creates the account, signs it in and lands in the workspace", async () => {
    const { workspace, ctx } = await makeWorkspace("owner");
    const inv = await inviteMember(ctx, { email: "fresh@example.test", role: "editor" });
    if (inv.kind !== "invited") throw new Error("expected an invitation");
    expect(await acceptInvitationAction({ token: inv.token, name: "Fresh", password: "short" })).toMatchObject({
      ok: false,
      issues: [expect.objectContaining({ path: "password" })],
    });
    const err = await acceptInvitationAction({ token: inv.token, name: "Fresh", password: "password123" }).catch((e: unknown) => e);
    expect(redirectTarget(err)).toBe(`/w/${workspace.id}`);
    expect(signIn).toHaveBeenCalledWith("credentials", { email: "fresh@example.test", password: "password123", redirect: false });
    // A second use of the link is refused with a clear message.
    expect(await acceptInvitationAction({ token: inv.token, password: "password123" })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/invalid, has expired/),
    });
  });
});
