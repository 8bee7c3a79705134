/**
 * An API key acts with at most its creator's current role, looked up on every request: a demoted
 * admin's admin key must not keep admin power (in the instance's first workspace that includes
 * the instance-wide retention settings and cleanup).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { authenticateApiKey, createApiKey, listApiKeys } from "@/lib/api-keys/service";
import { changeMemberRole } from "@/lib/workspaces/members";
import * as settingsRoute from "@/app/api/v1/settings/retention/route";
import * as cleanupRoute from "@/app/api/v1/admin/cleanup/route";
import * as suitesRoute from "@/app/api/v1/suites/route";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { call } from "../helpers/api";
import { addMember, makeApiKey, makeWorkspace } from "../helpers/factories";

let owner: WorkspaceContext;
beforeAll(async () => {
  // The instance's first workspace: its admins (and admin keys) administer instance settings.
  owner = (await makeWorkspace("owner", "first")).ctx;
});

const settings = "/api/v1/settings/retention";
const patchRetention = (token: string, body: unknown) => call(settingsRoute.PATCH, { url: settings, method: "PATCH", token, body });
const cleanup = (token: string) => call(cleanupRoute.POST, { url: "/api/v1/admin/cleanup?dry_run=true", method: "POST", token });

describe("an API key and its creator's role", () => {
  it("a demoted admin's admin key acts as their new role at once, on every request, and the list shows both roles", async () => {
    const admin = await addMember(owner.workspaceId, "admin");
    const { key, token } = await createApiKey(admin.ctx, { name: "admin's admin key", role: "admin" });
    expect((await patchRetention(token, { days: 7 })).status).toBe(200);
    expect((await cleanup(token)).status).toBe(200);

    await changeMemberRole(owner, admin.user.id, "viewer");
    expect(await authenticateApiKey(token)).toMatchObject({ role: "viewer", apiKeyId: key.id });
    const refused = await patchRetention(token, { days: 1, runs: 1 });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("forbidden");
    expect((await cleanup(token)).status).toBe(403);
    expect((await call(suitesRoute.GET, { url: "/api/v1/suites", token })).status).toBe(200);
    expect(await db.instanceSetting.findUnique({ where: { key: "test_suites.retention_days" } })).toMatchObject({ value: 7 });
    expect((await listApiKeys(owner)).find((k) => k.id === key.id)).toMatchObject({ role: "admin", effectiveRole: "viewer" });

    // Promoted to editor: the key follows, still below its own admin role.
    await changeMemberRole(owner, admin.user.id, "editor");
    expect((await authenticateApiKey(token))?.role).toBe("editor");
    expect((await listApiKeys(owner)).find((k) => k.id === key.id)).toMatchObject({ effectiveRole: "editor" });
    // Back to admin: the key's own role is the limit again.
    await changeMemberRole(owner, admin.user.id, "admin");
    expect((await authenticateApiKey(token))?.role).toBe("admin");
    expect((await patchRetention(token, { days: null })).status).toBe(200);
  });

  it("a key whose creator was deleted stops working and is listed as refused", async () => {
    const admin = await addMember(owner.workspaceId, "admin");
    const { key, token } = await createApiKey(admin.ctx, { name: "orphan", role: "editor" });
    expect((await authenticateApiKey(token))?.role).toBe("editor");
    await db.user.delete({ where: { id: admin.user.id } });
    expect(await authenticateApiKey(token)).toBeNull();
    expect((await cleanup(token)).status).toBe(401);
    expect((await listApiKeys(owner)).find((k) => k.id === key.id)).toMatchObject({ role: "editor", effectiveRole: null });
  });

  it("an owner's admin key acts as admin; a key without a recorded creator keeps its own role", async () => {
    const { key, token } = await createApiKey(owner, { name: "owner's", role: "admin" });
    expect((await authenticateApiKey(token))?.role).toBe("admin");
    expect((await listApiKeys(owner)).find((k) => k.id === key.id)).toMatchObject({ role: "admin", effectiveRole: "admin" });
    const creatorless = await makeApiKey(owner.workspaceId, "editor");
    expect((await authenticateApiKey(creatorless))?.role).toBe("editor");
  });
});
