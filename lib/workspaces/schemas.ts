import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { TEXT_LIMITS } from "@/lib/validation/limits";
import { storableText } from "@/lib/validation/text";

const email = z.email("Enter a valid email address").trim().max(320);
const password = z.string().min(8, "Use at least 8 characters").max(200, "Use at most 200 characters");
// These forms are parsed by their own actions (not the action client), so the NUL/surrogate rule is on the fields.
const workspaceName = z
  .string()
  .trim()
  .min(1, "Workspace name is required")
  .max(TEXT_LIMITS.shortName, `Use at most ${TEXT_LIMITS.shortName} characters`)
  .superRefine(storableText);
const personName = z.string().trim().max(TEXT_LIMITS.shortName).superRefine(storableText);

export const setupInput = z.object({
  name: personName.optional(),
  email,
  password,
  workspaceName,
});
export type SetupInput = z.input<typeof setupInput>;

export const signInInput = z.object({ email, password: z.string().min(1, "Password is required") });
export type SignInInput = z.input<typeof signInInput>;

/** The account page: the new password follows the setup/invite rule; `confirm` must repeat it. */
export const changePasswordInput = z
  .object({
    currentPassword: z.string().min(1, "Enter your current password").max(200, "Use at most 200 characters"),
    newPassword: password,
    confirm: z.string(),
  })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], message: "The passwords do not match" });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;

export const workspaceInput = z.object({ name: workspaceName });

/**
 * An IANA time zone name as this runtime's Intl knows it (what the scheduler's croner uses too),
 * in its listed spelling ("europe/berlin" → "Europe/Berlin"); null when unknown. Offsets such as
 * "+01:00" are refused: a schedule follows a place's DST rules, not a fixed offset.
 */
export function normaliseTimeZone(name: string): string | null {
  const trimmed = name.trim();
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(trimmed)) return null;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: trimmed });
    if (/^(etc\/)?(utc|gmt|uct|zulu|universal)$/i.test(trimmed)) return "UTC";
    // A name Intl accepts but does not list (an alias such as Asia/Kolkata on some ICU versions) stays as typed.
    return timeZoneNames().find((z) => z.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
  } catch {
    return null;
  }
}

/** The zones offered in the settings form's list. */
export function timeZoneNames(): string[] {
  return ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
}

export const workspaceSettingsInput = z.object({
  name: workspaceName,
  // The safety cap on conversation turns, also when max_turns is empty (MAX_SAFETY_CAP in lib/conversation/types.ts).
  maxTurnsCap: z.coerce.number().int().min(1, "At least 1").max(200, "At most 200"),
  /** IANA name; the suites' schedules run on this zone's wall clock (DST included). Omitted: unchanged. */
  timeZone: z
    .string()
    .max(64)
    .transform((v, ctx) => {
      const zone = normaliseTimeZone(v);
      if (!zone) ctx.addIssue({ code: "custom", message: "Use an IANA time zone such as Europe/Berlin, America/New_York or UTC" });
      return zone ?? v;
    })
    .optional(),
});

export const memberRole = z.enum(ROLES);

export const inviteInput = z.object({ email, role: memberRole });
export type InviteInput = z.input<typeof inviteInput>;

export const acceptInviteInput = z.object({
  token: z.string().min(10),
  name: personName.optional(),
  password,
});

/** Days until an API key expires; "never" keeps it until revoked. */
export const API_KEY_EXPIRY_DAYS = ["never", "7", "30", "90", "365"] as const;

export const apiKeyInput = z.object({
  name: z.string().trim().min(1, "Name is required").max(100),
  role: z.enum(["admin", "editor", "viewer"]),
  /** ingest: the key can only send traces to the OTLP endpoint (it is an editor key for that one route). */
  scope: z.enum(["full", "ingest"]).default("full"),
  expiresInDays: z.enum(API_KEY_EXPIRY_DAYS).default("never"),
});

/** Settings actions: a member (by user id) and an id of a workspace-scoped row. */
export const memberRef = z.object({ userId: z.uuid() });
export const memberRoleInput = z.object({ userId: z.uuid(), role: memberRole });
export const rowRef = z.object({ id: z.uuid() });
export const joinInviteInput = z.object({ token: z.string().min(10) });
export type WorkspaceSettingsInput = z.input<typeof workspaceSettingsInput>;
export type AcceptInviteInput = z.input<typeof acceptInviteInput>;
export type ApiKeyInput = z.input<typeof apiKeyInput>;
export type WorkspaceInput = z.input<typeof workspaceInput>;
