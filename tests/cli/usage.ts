// The CLI tests' check for a usage error: the message a call refuses with, asserting its class.
import { expect } from "vitest";
import { UsageError } from "@/lib/cli/errors.mjs";

/** Runs `fn`, expects it to throw a UsageError and returns the error's message. */
export const usage = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message;
  }
  throw new Error("expected a UsageError");
};
