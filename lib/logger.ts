import pino from "pino";
import { env } from "@/lib/env";

/** The one structured logger for server code. */
export const logger = pino({ level: env.NODE_ENV === "test" ? "silent" : env.LOG_LEVEL, base: { app: "assay" } });
