import { DEFAULT_REVIEW_RULES, reviewRulesSchema, type ReviewRules } from "./schemas";

/** A suite's stored review rules (`Suite.reviewRules`), validated on write; anything unreadable reads as no rules. */
export function reviewRulesOf(raw: unknown): ReviewRules {
  const parsed = reviewRulesSchema.safeParse(raw ?? {});
  return parsed.success ? parsed.data : DEFAULT_REVIEW_RULES;
}
