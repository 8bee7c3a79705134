import { describe, expect, it, vi } from "vitest";

// The invite page's loader asks Auth.js who is signed in: a test decides.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("@/lib/auth", () => ({ currentUserId: async () => session.userId }));
import { db } from "@/lib/db";
import { hashToken } from "@/lib/crypto";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { authenticateWithPassword } from "@/lib/users/service";
import {
  acceptInvitationAsUser,
  acceptInvitationWithNewAccount,
  inviteMember,
  listInvitations,
  lookupInvitation,
  revokeInvitation,
} from "@/lib/workspaces/invitations";
import { loadInvitePage } from "@/lib/workspaces/loaders";
import { addMember, makeWorkspace } from "../helpers/factories";

async function invite(ctx: Parameters<typeof inviteMember>[0], email: string, role: "admin" | "editor" | "viewer" = "editor") {
  const result = await inviteMember(ctx, { email, role });
  if (result.kind !== "invited") throw new Error("expected an invitation");
  return result;
}

describe("inviting by email", () => {
  it("invites an existing account like a new address: a pending invitation, the same answer, no membership yet", async () => {
    const { workspace, ctx } = await makeWorkspace("admin");
    const other = await makeWorkspace("owner");
    const existing = await inviteMember(ctx, { email: other.user.email.toUpperCase(), role: "viewer" });
    const fresh = await inviteMember(ctx, { email: "nobody-yet@example.test", role: "viewer" });
    // The answers have the same shape and keys: nothing tells the inviter which address is registered.
    const shape = (r: typeof existing) => ({ kind: r.kind, keys: Object.keys(r).sort(), invitationKeys: Object.keys(r.invitation).sort() });
    expect(shape(existing)).toEqual(shape(fresh));
    expect(existing).toMatchObject({ kind: "invited", invitation: { email: other.user.email, role: "viewer", expired: false } });
    expect(
      await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: other.user.id } } }),
    ).toBeNull();
    expect(await lookupInvitation(existing.token)).not.toHaveProperty("accountExists");

    // The existing user accepts after signing in, and only then becomes a member.
    await expect(acceptInvitationAsUser(other.user.id, existing.token)).resolves.toEqual({ workspaceId: workspace.id });
    const m = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: other.user.id } } });
    expect(m?.role).toBe("viewer");
    // Inviting a member again is a conflict at the email field (members are listed on the same page).
    await expect(inviteMember(ctx, { email: other.user.email, role: "editor" })).rejects.toMatchObject({
      constructor: ConflictError,
      issues: [{ path: "email", message: expect.stringContaining("already a member") }],
    });
  });

  it("creates an invitation with a hashed token that expires in 7 days", async () => {
    const { workspace, ctx, user } = await makeWorkspace("admin");
    const before = Date.now();
    const { token, invitation } = await invite(ctx, "  New.Person@Example.test ");
    const row = await db.invitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(row).toMatchObject({
      workspaceId: workspace.id,
      email: "new.person@example.test",
      role: "editor",
      invitedById: user.id,
      acceptedAt: null,
    });
    expect(row.tokenHash).toBe(hashToken(token));
    expect(row.tokenHash).not.toContain(token);
    const days = (row.expiresAt.getTime() - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);
    expect((await listInvitations(ctx)).map((i) => i.email)).toEqual(["new.person@example.test"]);
  });

  it("replaces an open invitation for the same address, so only the newest link works", async () => {
    const { ctx } = await makeWorkspace("admin");
    const first = await invite(ctx, "twice@example.test");
    const second = await invite(ctx, "twice@example.test", "viewer");
    expect(await lookupInvitation(first.token)).toEqual({ state: "invalid" });
    expect(await lookupInvitation(second.token)).toMatchObject({ state: "valid", role: "viewer" });
  });

  it("lets only admins invite, and only owners invite owners", async () => {
    const { workspace, ctx: admin } = await makeWorkspace("admin");
    const editor = await addMember(workspace.id, "editor");
    await expect(inviteMember(editor.ctx, { email: "x@example.test", role: "viewer" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(inviteMember(admin, { email: "x@example.test", role: "owner" })).rejects.toBeInstanceOf(ForbiddenError);
    const owner = await addMember(workspace.id, "owner");
    await expect(inviteMember(owner.ctx, { email: "x@example.test", role: "owner" })).resolves.toMatchObject({ kind: "invited" });
    await expect(listInvitations(editor.ctx)).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("the invite page", () => {
  it("shows a signed-out visitor the same page whether or not the invited address has an account", async () => {
    const { ctx } = await makeWorkspace("admin", "Same page");
    const other = await makeWorkspace("owner");
    const existing = await invite(ctx, other.user.email, "viewer");
    const fresh = await invite(ctx, "no-account-yet@example.test", "viewer");
    session.userId = null;
    const forExisting = await loadInvitePage(existing.token);
    const forFresh = await loadInvitePage(fresh.token);
    expect(forExisting).toMatchObject({ view: "signed-out", invitation: { email: other.user.email } });
    // Apart from the address itself (and the link's own expiry time), nothing differs.
    const shape = (page: Awaited<ReturnType<typeof loadInvitePage>>) =>
      "invitation" in page ? { ...page, invitation: { ...page.invitation, email: "(invited)", expiresAt: "(in 7 days)" } } : page;
    expect(shape(forExisting)).toEqual(shape(forFresh));

    // Signed in with the invited address: join; with another one: told so.
    session.userId = other.user.id;
    expect(await loadInvitePage(existing.token)).toMatchObject({ view: "join" });
    expect(await loadInvitePage(fresh.token)).toMatchObject({ view: "wrong-user", userEmail: other.user.email });
    session.userId = null;
  });
});

describe("accepting an invitation", () => {
  it("creates the account and membership in one go and marks the invitation accepted", async () => {
    const { workspace, ctx } = await makeWorkspace("owner", "Acme QA");
    const { token, invitation } = await invite(ctx, "newbie@example.test", "viewer");
    expect(await lookupInvitation(token)).toMatchObject({
      state: "valid",
      email: "newbie@example.test",
      role: "viewer",
      workspace: { id: workspace.id, name: "Acme QA" },
    });

    const accepted = await acceptInvitationWithNewAccount({ token, name: "New Bie", password: "password123" });
    expect(accepted).toMatchObject({ workspaceId: workspace.id, email: "newbie@example.test" });
    const user = await db.user.findUniqueOrThrow({ where: { email: "newbie@example.test" } });
    expect(user.name).toBe("New Bie");
    expect(await authenticateWithPassword("newbie@example.test", "password123")).not.toBeNull();
    const membership = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: user.id } } });
    expect(membership?.role).toBe("viewer");
    expect((await db.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).acceptedAt).toBeInstanceOf(Date);
    expect(await listInvitations(ctx)).toEqual([]);
  });

  it("refuses a used token, and writes nothing when the account already exists", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { token } = await invite(ctx, "once@example.test");
    await acceptInvitationWithNewAccount({ token, password: "password123" });
    expect(await lookupInvitation(token)).toEqual({ state: "used" });
    await expect(acceptInvitationWithNewAccount({ token, password: "password123" })).rejects.toBeInstanceOf(ValidationError);

    // A second workspace invites the same (now existing) address by invitation row directly.
    const other = await makeWorkspace("owner");
    const raw = "inv_" + "z".repeat(40);
    await db.invitation.create({
      data: {
        workspaceId: other.workspace.id,
        email: "once@example.test",
        role: "editor",
        tokenHash: hashToken(raw),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    expect(await lookupInvitation(raw)).toMatchObject({ state: "valid" });
    await expect(acceptInvitationWithNewAccount({ token: raw, password: "password123" })).rejects.toBeInstanceOf(ConflictError);
    // The transaction rolled back: still unaccepted, no membership.
    expect((await db.invitation.findUniqueOrThrow({ where: { tokenHash: hashToken(raw) } })).acceptedAt).toBeNull();
    expect(await db.membership.count({ where: { workspaceId: other.workspace.id } })).toBe(1);
  });

  it("refuses expired and revoked tokens", async () => {
    const { ctx } = await makeWorkspace("owner");
    const expired = await invite(ctx, "late@example.test");
    await db.invitation.update({ where: { id: expired.invitation.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await lookupInvitation(expired.token)).toEqual({ state: "expired" });
    expect((await listInvitations(ctx))[0]).toMatchObject({ email: "late@example.test", expired: true });
    await expect(acceptInvitationWithNewAccount({ token: expired.token, password: "password123" })).rejects.toBeInstanceOf(ValidationError);

    const revoked = await invite(ctx, "gone@example.test");
    await revokeInvitation(ctx, revoked.invitation.id);
    expect(await lookupInvitation(revoked.token)).toEqual({ state: "invalid" });
    await expect(acceptInvitationWithNewAccount({ token: revoked.token, password: "password123" })).rejects.toBeInstanceOf(ValidationError);
    await expect(revokeInvitation(ctx, revoked.invitation.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await db.user.count({ where: { email: { in: ["late@example.test", "gone@example.test"] } } })).toBe(0);
    expect(await lookupInvitation("inv_unknown-token")).toEqual({ state: "invalid" });
  });

  it("accepts exactly once when the link is used twice at the same time", async () => {
    const { ctx } = await makeWorkspace("owner");
    const { token } = await invite(ctx, "race@example.test");
    const results = await Promise.allSettled([
      acceptInvitationWithNewAccount({ token, password: "password123" }),
      acceptInvitationWithNewAccount({ token, password: "password456" }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db.user.count({ where: { email: "race@example.test" } })).toBe(1);
  });

  it("lets a signed-in user with the invited address join, and nobody else", async () => {
    const { workspace } = await makeWorkspace("owner");
    const existing = await makeWorkspace("owner");
    const stranger = await makeWorkspace("owner");
    // Invite by row, to control the token.
    const token = "inv_" + "y".repeat(40);
    await db.invitation.create({
      data: {
        workspaceId: workspace.id,
        email: existing.user.email,
        role: "editor",
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    await expect(acceptInvitationAsUser(stranger.user.id, token)).rejects.toBeInstanceOf(ForbiddenError);
    expect(await lookupInvitation(token)).toMatchObject({ state: "valid" });

    await expect(acceptInvitationAsUser(existing.user.id, token)).resolves.toEqual({ workspaceId: workspace.id });
    const m = await db.membership.findUnique({ where: { workspaceId_userId: { workspaceId: workspace.id, userId: existing.user.id } } });
    expect(m?.role).toBe("editor");
    expect(await lookupInvitation(token)).toEqual({ state: "used" });
    await expect(acceptInvitationAsUser(existing.user.id, token)).rejects.toBeInstanceOf(ValidationError);
  });

  it("cannot revoke another workspace's invitation", async () => {
    const a = await makeWorkspace("owner");
    const b = await makeWorkspace("owner");
    const { invitation, token } = await invite(b.ctx, "b-only@example.test");
    await expect(revokeInvitation(a.ctx, invitation.id)).rejects.toBeInstanceOf(NotFoundError);
    expect(await lookupInvitation(token)).toMatchObject({ state: "valid" });
    expect(await listInvitations(a.ctx)).toEqual([]);
  });
});
