import type { IssueList } from "@/lib/errors";

/**
 * Agent rules that `agentInput` does not express, shared by the form (client) and the service:
 * header names must be HTTP tokens, unique regardless of case, and values single-line.
 */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function headerIssues(headers: Record<string, string> | null | undefined, path = "http.headers"): IssueList {
  if (!headers) return [];
  const issues: IssueList = [];
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name))
      issues.push({ path, message: `Header name "${name}" may only contain letters, digits and - _ . ! # $ % & ' * + ^ \` | ~` });
    else if (seen.has(lower)) issues.push({ path, message: `Header "${name}" is listed twice` });
    if (/[\r\n\0]/.test(value)) issues.push({ path, message: `Header "${name}" must be a single line` });
    seen.add(lower);
  }
  return issues;
}
