import { withApi } from "@/lib/api/handler";
import { retentionSettingsPatch } from "@/lib/retention/schemas";
import { getRetentionSettings, requireInstanceAdmin, updateRetentionSettings } from "@/lib/retention/service";

/** The instance's retention settings with their source (database, env, default). Instance admins only. */
export const GET = withApi({
  role: "admin",
  handler: async ({ ctx }) => {
    await requireInstanceAdmin(ctx);
    return { json: await getRetentionSettings() };
  },
});

/** Sets (or, with null, clears) database values; omitted fields are untouched. */
export const PATCH = withApi({
  role: "admin",
  body: retentionSettingsPatch,
  handler: async ({ ctx, body }) => ({ json: await updateRetentionSettings(ctx, body) }),
});
