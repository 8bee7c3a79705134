/**
 * Traffic's public shapes that client components use (no server-only imports): the conversation
 * resources' DTOs and a drafted case.
 */
import type { CaseSourceInput, ExpectedToolCall, Persona } from "@/lib/test-cases/schemas";
import type { DraftKind } from "./schemas";

export type { ConversationDto, ConversationSummaryDto } from "./schemas";

/** The case fields a draft fills, in the test case format (what POST …/test-cases accepts). */
export type DraftedCase = {
  name: string;
  description: string | null;
  status: "active" | "draft";
  tags: string[];
  initial_message: string | null;
  persona: Persona | null;
  user_context: Record<string, unknown> | null;
  max_turns: number | null;
  expected_outcomes: Record<string, string> | null;
  expected_tool_calls: ExpectedToolCall[] | null;
};

export type CaseDraft = {
  kind: DraftKind;
  test_case: DraftedCase;
  source: NonNullable<CaseSourceInput>;
  /** The fields the judge model wrote (to review first). */
  drafted: string[];
  /** What was left out and why (no judge model, the judge failed, nothing to draft from). */
  notes: string[];
};
