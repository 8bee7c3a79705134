import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { changeMemberRole, leaveWorkspace, listMembers, removeMember } from "@/lib/workspaces/members";
import { updateWorkspaceSettings } from "@/lib/workspaces/service";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/service";
import { addMember, makeWorkspace } from "../helpers/factories";

const roleOf = async (workspaceId: string, userId: string) =>
  (await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } } }))?.role ?? null;

describe("listing members", () => {
  it("shows every member with email, role and join date, owners first, to any member", async () => {
    const { workspace, user: owner } = await makeWorkspace("owner");
    const viewer = await addMember(workspace.id, "viewer");
    const admin = await addMember(workspace.id, "admin");
    const members = await listMembers(viewer.ctx);
    expect(members.map((m) => m.role)).toEqual(["owner", "admin", "viewer"]);
    expect(members[0]).toMatchObject({ userId: owner.id, email: owner.email, name: "Tester", joinedAt: expect.any(Date) });
    expect(members.map((m) => m.userId)).toContain(admin.user.id);
  });
});

describe("changing roles", () => {
  it("lets admins change editors and viewers", async () => {
    const { workspace } = await makeWorkspace("owner");
    const admin = await addMember(workspace.id, "admin");
    const editor = await addMember(workspace.id, "editor");
    const updated = await changeMemberRole(admin.ctx, editor.user.id, "viewer");
    expect(updated.role).toBe("viewer");
    expect(await roleOf(workspace.id, editor.user.id)).toBe("viewer");
  });

  it("refuses editors and viewers", async () => {
    const { workspace } = await makeWorkspace("owner");
    const editor = await addMember(workspace.id, "editor");
    const viewer = await addMember(workspace.id, "viewer");
    await expect(changeMemberRole(editor.ctx, viewer.user.id, "admin")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeMember(editor.ctx, viewer.user.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await roleOf(workspace.id, viewer.user.id)).toBe("viewer");
  });

  it("lets only owners grant or revoke the owner role; admins cannot touch owners", async () => {
    const { workspace, ctx: ownerCtx, user: owner } = await makeWorkspace("owner");
    const admin = await addMember(workspace.id, "admin");
    const editor = await addMember(workspace.id, "editor");
    await expect(changeMemberRole(admin.ctx, editor.user.id, "owner")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(changeMemberRole(admin.ctx, admin.user.id, "owner")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(changeMemberRole(admin.ctx, owner.id, "viewer")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(removeMember(admin.ctx, owner.id)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await roleOf(workspace.id, owner.id)).toBe("owner");

    await changeMemberRole(ownerCtx, editor.user.id, "owner");
    expect(await roleOf(workspace.id, editor.user.id)).toBe("owner");
    // With a second owner the first may step down.
    await changeMemberRole(ownerCtx, owner.id, "admin");
    expect(await roleOf(workspace.id, owner.id)).toBe("admin");
  });

  it("never demotes or removes the last owner", async () => {
    const { workspace, ctx, user: owner } = await makeWorkspace("owner");
    await addMember(workspace.id, "admin");
    await expect(changeMemberRole(ctx, owner.id, "admin")).rejects.toBeInstanceOf(ConflictError);
    await expect(removeMember(ctx, owner.id)).rejects.toBeInstanceOf(ConflictError);
    await expect(leaveWorkspace(ctx)).rejects.toBeInstanceOf(ConflictError);
    expect(await roleOf(workspace.id, owner.id)).toBe("owner");
  });

  it("keeps one owner when two owners demote each other at the same time", async () => {
    const { workspace, ctx: a, user: ua } = await makeWorkspace("owner");
    const b = await addMember(workspace.id, "owner");
    const results = await Promise.allSettled([changeMemberRole(a, b.user.id, "admin"), changeMemberRole(b.ctx, ua.id, "admin")]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db.membership.count({ where: { workspaceId: workspace.id, role: "owner" } })).toBe(1);
  });
});

describe("removing and leaving", () => {
  it("removes members; owners can remove another owner", async () => {
    const { workspace, ctx } = await makeWorkspace("owner");
    const admin = await addMember(workspace.id, "admin");
    const viewer = await addMember(workspace.id, "viewer");
    const owner2 = await addMember(workspace.id, "owner");
    await removeMember(admin.ctx, viewer.user.id);
    expect(await roleOf(workspace.id, viewer.user.id)).toBeNull();
    await removeMember(ctx, owner2.user.id);
    expect(await roleOf(workspace.id, owner2.user.id)).toBeNull();
    await expect(removeMember(ctx, viewer.user.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("lets any member leave, and an owner leave when another owner remains", async () => {
    const { workspace, ctx, user } = await makeWorkspace("owner");
    const viewer = await addMember(workspace.id, "viewer");
    await leaveWorkspace(viewer.ctx);
    expect(await roleOf(workspace.id, viewer.user.id)).toBeNull();
    await addMember(workspace.id, "owner");
    await leaveWorkspace(ctx);
    expect(await roleOf(workspace.id, user.id)).toBeNull();
  });
});

describe("workspace isolation", () => {
  it("an admin of A cannot touch B's members, keys or settings", async () => {
    const a = await makeWorkspace("owner");
    const b = await makeWorkspace("owner", "Workspace B");
    const bEditor = await addMember(b.workspace.id, "editor");
    const { key: bKey } = await createApiKey(b.ctx, { name: "B key", role: "viewer" });

    // A's context can only ever address rows of A: B's member and key are "not found".
    await expect(changeMemberRole(a.ctx, bEditor.user.id, "viewer")).rejects.toBeInstanceOf(NotFoundError);
    await expect(removeMember(a.ctx, bEditor.user.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revokeApiKey(a.ctx, bKey.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await listMembers(a.ctx)).map((m) => m.userId)).toEqual([a.user.id]);
    expect(await listApiKeys(a.ctx)).toEqual([]);

    await updateWorkspaceSettings(a.ctx, { name: "Renamed A", maxTurnsCap: 12 });
    const bRow = await db.workspace.findUniqueOrThrow({ where: { id: b.workspace.id } });
    expect(bRow).toMatchObject({ name: "Workspace B", maxTurnsCap: 30 });
    expect(await roleOf(b.workspace.id, bEditor.user.id)).toBe("editor");
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: bKey.id } })).revokedAt).toBeNull();
  });

  it("rejects malformed member ids as not found", async () => {
    const { ctx } = await makeWorkspace("owner");
    await expect(changeMemberRole(ctx, "not-a-uuid", "viewer")).rejects.toBeInstanceOf(NotFoundError);
  });
});
