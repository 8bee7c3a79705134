import { randomUUID } from "node:crypto";
import type { FakeOpenAI } from "../fake-openai/server";
import type { Endpoint } from "@/lib/llm/types";

/** An endpoint on the fake server with a fresh id (so per-endpoint state never leaks between tests). */
export function fakeEndpoint(fake: FakeOpenAI, overrides: Partial<Endpoint> = {}): Endpoint {
  return {
    id: randomUUID(),
    baseUrl: fake.url,
    apiKey: "sk-test",
    model: "gpt-4o-mini",
    embeddingModel: "text-embedding-3-small",
    temperature: null,
    maxTokens: null,
    ...overrides,
  };
}

/** Milliseconds between consecutive recorded requests. */
export function gaps(fake: FakeOpenAI): number[] {
  return fake.requests.slice(1).map((r, i) => r.at - fake.requests[i]!.at);
}

/** The text of every message of a recorded chat request. */
export function requestText(body: unknown): string {
  return JSON.stringify(body);
}
