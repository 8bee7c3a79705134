import { z } from "zod";

/** The API's and the share dialog's input: how long the new link works, in whole days. */
export const MAX_SHARE_DAYS = 90;
export const DEFAULT_SHARE_DAYS = 7;

export const shareLinkInput = z.strictObject({
  expires_in_days: z
    .number({ error: "A whole number of days, 1 to 90" })
    .int("A whole number of days, 1 to 90")
    .min(1, "At least 1 day")
    .max(MAX_SHARE_DAYS, `At most ${MAX_SHARE_DAYS} days`)
    .default(DEFAULT_SHARE_DAYS)
    .describe("How long the link works, in days (1–90, default 7)"),
});

export const sharingSettingInput = z.strictObject({ enabled: z.boolean() });
