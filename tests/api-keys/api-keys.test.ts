import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { hashToken } from "@/lib/crypto";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { authenticateApiKey, createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/service";
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

    expect(await authenticateApiKey(token)).toEqual({ workspaceId: workspace.id, role: "editor", userId: null, apiKeyId: key.id });
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
