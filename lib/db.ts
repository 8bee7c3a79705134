import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";

function createClient() {
  // Without DATABASE_URL (e.g. during `next build`) the client is created but every query fails.
  const connectionString = env.DATABASE_URL ?? "postgresql://database-url-not-set@127.0.0.1:1/none";
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 20 }) });
}

const globalForDb = globalThis as unknown as { assayDb?: PrismaClient };

/** The one Prisma client. Cached on globalThis in development so hot reload does not leak pools. */
export const db: PrismaClient = globalForDb.assayDb ?? createClient();
if (env.NODE_ENV === "development") globalForDb.assayDb = db;

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];
