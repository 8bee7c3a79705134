// Reading the error a promise rejects with, for tests that assert on it (no database needed).
import { expect } from "vitest";

/** Awaits `p`'s rejection and returns the error, checking its class (fails the test if `p` resolves). */
export async function rejectionOf<E extends Error>(p: Promise<unknown>, cls: new (...args: never[]) => E): Promise<E> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  return err as E;
}
