import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashToken } from "@/lib/crypto";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/service";
import { removeMember, leaveWorkspace } from "@/lib/workspaces/members";
import { withApi } from "@/lib/api/handler";
import { call } from "../helpers/api";
import { addMember, makeWorkspace } from "../helpers/factories";

describe("API keys", () => {
  it("authenticates a created key as its workspace and role, and stores only its hash", async () => {
    const { workspace, ctx, user } = await makeWorkspace("admin");
    const { key, token } = await createApiKey(ctx, { name: "CI", role: "editor" });
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(key).not.toHaveProperty("keyHash");
    const row = await db.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row).toMatchObject({ keyHash: hashToken(token), prefix: token.slice(0, 12), createdById: user.id, lastUsedAt: null });
    expect(JSON.stringify(row)).not.toContain(token);

    expect(await authenticateApiKey(token)).toEqual({
      workspaceId: workspace.id,
      role: "editor",
      userId: null,
      apiKeyId: key.id,
      keyScope: "full",
    });
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: key.id } })).lastUsedAt).toBeInstanceOf(Date);
    const listed = await listApiKeys(ctx);
    expect(listed).toEqual([
      expect.objectContaining({
        id: key.id,
        name: "CI",
        role: "editor",
        prefix: token.slice(0, 12),
        revokedAt: null,
        lastUsedAt: expect.any(Date),
      }),
    ]);
  });

  it("refuses unknown, short and revoked keys", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { key, token } = await createApiKey(ctx, { name: "temp", role: "viewer" });
    expect(await authenticateApiKey("short")).toBeNull();
    expect(await authenticateApiKey(token.slice(0, -1) + (token.endsWith("A") ? "B" : "A"))).toBeNull();
    await revokeApiKey(ctx, key.id);
    expect(await authenticateApiKey(token)).toBeNull();
    expect((await listApiKeys(ctx))[0]!.revokedAt).toBeInstanceOf(Date);
    // Revoking twice: nothing left to revoke.
    await expect(revokeApiKey(ctx, key.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("is managed by admins only and never grants owner", async () => {
    const { workspace, ctx } = await makeWorkspace("owner");
    const editor = await addMember(workspace.id, "editor");
    await expect(createApiKey(editor.ctx, { name: "x", role: "viewer" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(listApiKeys(editor.ctx)).rejects.toBeInstanceOf(ForbiddenError);
    const { key, token } = await createApiKey(ctx, { name: "o", role: "owner" });
    expect(key.role).toBe("admin");
    expect((await authenticateApiKey(token))?.role).toBe("admin");
    await expect(revokeApiKey(editor.ctx, key.id)).rejects.toBeInstanceOf(ForbiddenError);
  });

  it("keeps keys apart between workspaces", async () => {
    const a = await makeWorkspace("owner");
    const b = await makeWorkspace("owner");
    const { key: bKey, token: bToken } = await createApiKey(b.ctx, { name: "b", role: "admin" });
    await expect(revokeApiKey(a.ctx, bKey.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await listApiKeys(a.ctx)).toEqual([]);
    expect((await authenticateApiKey(bToken))?.workspaceId).toBe(b.workspace.id);
  });
});

describe("API key expiry and creator", () => {
  const GET = withApi({ role: "viewer", handler: async ({ ctx }) => ({ json: { workspace_id: ctx.workspaceId } }) });

  it("sets an optional expiry on creation; an expired key answers 401 like a revoked one", async () => {
    const { workspace, ctx } = await makeWorkspace("owner");
    const before = Date.now();
    const { key, token } = await createApiKey(ctx, { name: "30 days", role: "viewer", expiresInDays: 30 });
    const days = (key.expiresAt!.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThan(30.01);
    expect((await createApiKey(ctx, { name: "forever", role: "viewer" })).key.expiresAt).toBeNull();
    expect((await call(GET, { token })).status).toBe(200);

    await db.apiKey.update({ where: { id: key.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await authenticateApiKey(token)).toBeNull();
    const res = await call(GET, { token });
    expect(res.status).toBe(401);
    expect(res.json.error.code).toBe("unauthorized");
    expect((await listApiKeys(ctx)).find((k) => k.id === key.id)?.expiresAt).toBeInstanceOf(Date);
    expect(workspace.id).toBe(ctx.workspaceId);
  });

  it("stops working when the member who created it is removed or leaves", async () => {
    const { workspace, ctx: owner } = await makeWorkspace("owner");
    const admin = await addMember(workspace.id, "admin");
    const other = await addMember(workspace.id, "admin");
    const byAdmin = await createApiKey(admin.ctx, { name: "admin's", role: "editor" });
    const byOther = await createApiKey(other.ctx, { name: "other's", role: "editor" });
    const byOwner = await createApiKey(owner, { name: "owner's", role: "editor" });
    expect((await call(GET, { token: byAdmin.token })).status).toBe(200);

    await removeMember(owner, admin.user.id);
    expect(await authenticateApiKey(byAdmin.token)).toBeNull();
    expect((await call(GET, { token: byAdmin.token })).status).toBe(401);
    await leaveWorkspace(other.ctx);
    expect(await authenticateApiKey(byOther.token)).toBeNull();
    // Other members' keys keep working.
    expect((await authenticateApiKey(byOwner.token))?.workspaceId).toBe(workspace.id);
    // The keys were revoked with the membership: joining again does not bring them back.
    expect(
      (await listApiKeys(owner))
        .filter((k) => k.revokedAt)
        .map((k) => k.name)
        .sort(),
    ).toEqual(["admin's", "other's"]);
    await db.membership.create({ data: { workspaceId: workspace.id, userId: admin.user.id, role: "viewer" } });
    expect(await authenticateApiKey(byAdmin.token)).toBeNull();
    // A creator removed behind the service's back (no revocation) is still caught by the lookup.
    const third = await addMember(workspace.id, "admin");
    const byThird = await createApiKey(third.ctx, { name: "third's", role: "viewer" });
    await db.membership.deleteMany({ where: { workspaceId: workspace.id, userId: third.user.id } });
    expect(await authenticateApiKey(byThird.token)).toBeNull();
  });
});
