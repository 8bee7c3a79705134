/**
 * Health: whether the database answers within a timeout. Called by GET /api/health, which the
 * launcher, Playwright and container health checks poll. The route is public, so this reads
 * nothing from any workspace.
 */
import "server-only";
import { db } from "@/lib/db";

export async function databaseAnswers(timeoutMs = 2000): Promise<boolean> {
  try {
    await Promise.race([db.$queryRaw`SELECT 1`, new Promise((_, reject) => setTimeout(() => reject(new Error("timeout")), timeoutMs))]);
    return true;
  } catch {
    return false;
  }
}
