import type { TestCaseStatus } from "@/lib/test-cases/schemas";
import type { TestCaseDto } from "@/lib/test-cases/dto";

/** The public (snake_case) test case as the pages pass it to client components (a type-only import: erased from the bundle). */
export type TestCaseView = TestCaseDto;

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
