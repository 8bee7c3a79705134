import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { db } from "@/lib/db";
import { DomainError, ValidationError } from "@/lib/errors";

const uid = () => randomBytes(4).toString("hex");

/** An agent and a live suite in the workspace, created directly. */
export async function makeSuite(workspaceId: string, name = `suite-${uid()}`) {
  const agent = await db.agent.create({ data: { workspaceId, name: `agent-${uid()}`, kind: "chat", systemPrompt: "You help." } });
  return db.suite.create({ data: { workspaceId, agentId: agent.id, name } });
}

/** A minimal runnable case (fields as a client writes them). */
export function runnableCase(overrides: Record<string, unknown> = {}) {
  return { name: `case-${uid()}`, initial_message: "Hello, I need help with my order", ...overrides };
}

/** Awaits a rejection and returns the domain error, checking its class. */
export async function rejection<E extends DomainError>(p: Promise<unknown>, cls: new (...args: never[]) => E): Promise<E> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(cls);
  return err as E;
}

/** The issues of a ValidationError as "path: message" lines. */
export async function issuesOf(p: Promise<unknown>): Promise<{ path: string; message: string }[]> {
  const err = await rejection(p, ValidationError);
  return err.issues;
}
