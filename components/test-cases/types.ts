import type { Check, ExpectedToolCall, Persona, TestCaseStatus } from "@/lib/test-cases/schemas";

/** The public (snake_case) test case as the pages pass it to client components. */
export type TestCaseView = {
  id: string;
  suite_id: string;
  name: string;
  description: string | null;
  difficulty: "normal" | "hard";
  tags: string[];
  status: TestCaseStatus;
  persona: Persona | null;
  initial_message: string | null;
  user_context: Record<string, unknown> | null;
  max_turns: number | null;
  expected_outcomes: Record<string, unknown> | null;
  expected_tool_calls: ExpectedToolCall[] | null;
  evaluation_criteria_override: string | null;
  checks: Check[];
  mode: "all" | "any";
  ground_truth: string | null;
  sort_order: number;
  created_at: string;
  updated_at: string;
};

/** A row of the suite page's case table (dates pre-formatted on the server). */
export type CaseRow = {
  id: string;
  name: string;
  status: TestCaseStatus;
  difficulty: "normal" | "hard";
  tags: string[];
  multi_turn: boolean;
  updated_label: string;
  updated_at: string;
};

export type AgentToolOption = { name: string; description: string };

export type StatusCounts = { draft: number; active: number; archived: number; total: number };
