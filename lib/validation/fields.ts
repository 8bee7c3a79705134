import { z } from "zod";
import { TEXT_LIMITS } from "@/lib/validation/limits";

/** Input fields several features' schemas share. No `server-only`: forms validate with them too. */

/** A URL Assay will call (an agent's HTTP endpoint, a model configuration's base URL, a webhook): http(s) only. */
export const httpUrlInput = z
  .url({ protocol: /^https?$/, error: "Enter an http(s) URL" })
  .trim()
  .max(TEXT_LIMITS.url);
