import "server-only";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { ConflictError } from "@/lib/errors";
import { createFirstAdmin, isSetupNeeded } from "@/lib/workspaces/service";

/**
 * Scripted installs: when the database has no users and ASSAY_INIT_USER_EMAIL,
 * ASSAY_INIT_USER_PASSWORD and ASSAY_INIT_WORKSPACE are set, create the first owner and
 * workspace (and register ASSAY_INIT_API_KEY, stored hashed) instead of showing /setup.
 */
export async function headlessInit(): Promise<"created" | "skipped"> {
  const email = env.ASSAY_INIT_USER_EMAIL;
  const password = env.ASSAY_INIT_USER_PASSWORD;
  const workspaceName = env.ASSAY_INIT_WORKSPACE;
  if (!email || !password || !workspaceName) {
    if (email || password || workspaceName || env.ASSAY_INIT_API_KEY) {
      logger.warn("headless init needs ASSAY_INIT_USER_EMAIL, ASSAY_INIT_USER_PASSWORD and ASSAY_INIT_WORKSPACE together");
    }
    return "skipped";
  }
  if (!(await isSetupNeeded())) return "skipped";
  try {
    await createFirstAdmin({ email, password, workspaceName, apiKey: env.ASSAY_INIT_API_KEY });
    logger.info({ email, workspace: workspaceName }, "headless init created the first admin and workspace");
    return "created";
  } catch (err) {
    if (err instanceof ConflictError) return "skipped";
    throw err;
  }
}
