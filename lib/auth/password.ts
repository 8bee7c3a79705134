import "server-only";
import { hash, verify } from "@node-rs/argon2";
import { env } from "@/lib/env";

// argon2id with OWASP's minimum recommended parameters (19 MiB, 2 iterations).
const options = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

/**
 * argon2 runs on libuv's thread pool, which the executor's DNS lookups and file reads share: a
 * flood of sign-ins must not occupy all of it. At most ASSAY_PASSWORD_HASH_CONCURRENCY hashes and
 * verifications run at once in this process; the rest wait in line (rate limits keep the line short).
 */
const slots = { active: 0, waiting: [] as (() => void)[] };

/** Counters for tests and diagnostics: how many argon2 operations ran, and the most at once. */
export const passwordHashStats = { hashes: 0, verifications: 0, maxActive: 0 };

async function withHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (slots.active >= env.ASSAY_PASSWORD_HASH_CONCURRENCY) {
    // release() hands its slot straight to us, so `active` stays counted.
    await new Promise<void>((resolve) => slots.waiting.push(resolve));
  } else {
    slots.active++;
  }
  passwordHashStats.maxActive = Math.max(passwordHashStats.maxActive, slots.active);
  try {
    return await fn();
  } finally {
    const next = slots.waiting.shift();
    if (next) next();
    else slots.active--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return withHashSlot(() => {
    passwordHashStats.hashes++;
    return hash(password, options);
  });
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) return false;
  return withHashSlot(async () => {
    passwordHashStats.verifications++;
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
}
