import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createFirstAdmin, isSetupNeeded, memberContext } from "@/lib/workspaces/service";
import { authenticateWithPassword } from "@/lib/users/service";
import { authenticateApiKey } from "@/lib/api-keys/service";
import { ConflictError, ForbiddenError, NotFoundError } from "@/lib/errors";
import { makeWorkspace } from "../helpers/factories";

describe("first-run setup", () => {
  it("creates the first owner and workspace once, even when two requests race", async () => {
    expect(await isSetupNeeded()).toBe(true);
    const input = { email: "Admin@Example.com", password: "password123", workspaceName: "Acme", apiKey: "k".repeat(40) };
    const results = await Promise.allSettled([createFirstAdmin(input), createFirstAdmin({ ...input, email: "other@example.com" })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(ConflictError);
    expect(await isSetupNeeded()).toBe(false);
    expect(await db.user.count()).toBe(1);
    expect(await db.workspace.count()).toBe(1);

    const user = await db.user.findFirstOrThrow();
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    // Emails are normalised to lower case; whichever request won, its user can sign in.
    expect(["admin@example.com", "other@example.com"]).toContain(user.email);
    expect(await authenticateWithPassword(user.email.toUpperCase(), "password123")).not.toBeNull();
    expect(await authenticateWithPassword(user.email, "wrong-password")).toBeNull();

    // The initial API key is stored hashed and authenticates as an admin of the workspace.
    const key = await db.apiKey.findFirstOrThrow();
    expect(key.keyHash).not.toContain("kkkk");
    const ctx = await authenticateApiKey("k".repeat(40));
    expect(ctx).toMatchObject({ role: "admin", workspaceId: (await db.workspace.findFirstOrThrow()).id });
  });
});

describe("membership context", () => {
  it("hides other workspaces and enforces roles", async () => {
    const a = await makeWorkspace("viewer");
    const b = await makeWorkspace("owner");
    await expect(memberContext(a.user.id, b.workspace.id, "viewer")).rejects.toBeInstanceOf(NotFoundError);
    await expect(memberContext(a.user.id, a.workspace.id, "editor")).rejects.toBeInstanceOf(ForbiddenError);
    await expect(memberContext(a.user.id, "not-a-uuid", "viewer")).rejects.toBeInstanceOf(NotFoundError);
    expect((await memberContext(a.user.id, a.workspace.id, "viewer")).role).toBe("viewer");
  });
});
