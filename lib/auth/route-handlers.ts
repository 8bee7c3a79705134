/**
 * /api/auth/* route handlers: Auth.js's, with the sign-in rate limit answered as HTTP 429 and a
 * Retry-After header on the credentials callback (the attempt itself is counted in the
 * Credentials provider, lib/auth/callbacks.ts, which the sign-in form's action also goes through).
 */
import "server-only";
import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth";
import { clientIp } from "./client-ip";
import { attemptKeys, peekAttempts, tooManyAttemptsMessage } from "./rate-limit";

export const GET = handlers.GET;

function tooManyAttempts(retryAfterSeconds: number): Response {
  return Response.json(
    { error: { code: "rate_limited", message: tooManyAttemptsMessage(retryAfterSeconds), issues: [] } },
    { status: 429, headers: { "Retry-After": String(retryAfterSeconds) } },
  );
}

/** Where Auth.js sends the client: a Location header, or `{url}` with X-Auth-Return-Redirect. */
async function redirectTarget(res: Response): Promise<string> {
  const location = res.headers.get("location");
  if (location) return location;
  if (!res.headers.get("content-type")?.includes("json")) return "";
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { url?: unknown } | null;
  return typeof body?.url === "string" ? body.url : "";
}

export async function POST(req: NextRequest): Promise<Response> {
  if (!req.nextUrl.pathname.endsWith("/callback/credentials")) return handlers.POST(req);
  const form = await req
    .clone()
    .formData()
    .catch(() => null);
  const email = form?.get("email");
  const keys = attemptKeys({ ip: clientIp(req.headers), email: typeof email === "string" && email.includes("@") ? email : null });
  const before = await peekAttempts(keys);
  if (!before.ok) return tooManyAttempts(before.retryAfterSeconds);
  const res = await handlers.POST(req);
  if (new URL(await redirectTarget(res), req.nextUrl.origin).searchParams.get("code") === "rate_limited") {
    const after = await peekAttempts(keys);
    return tooManyAttempts(after.ok ? 60 : after.retryAfterSeconds);
  }
  return res;
}
