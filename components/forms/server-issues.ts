import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { IssueList } from "@/lib/errors";

/** Puts server-side zod issues next to their fields; returns issues that have no field. */
export function applyServerIssues<T extends FieldValues>(setError: UseFormSetError<T>, issues: IssueList, fields?: string[]): IssueList {
  const rest: IssueList = [];
  for (const issue of issues) {
    if (issue.path && (!fields || fields.some((f) => issue.path === f || issue.path.startsWith(`${f}.`)))) {
      setError(issue.path as Path<T>, { type: "server", message: issue.message });
    } else {
      rest.push(issue);
    }
  }
  return rest;
}

/** The form-level message after `applyServerIssues`: the action's error, followed by the issues no field shows. */
export function formErrorText(error: string, rest: IssueList): string {
  return rest.length ? `${error}: ${rest.map((i) => i.message).join("; ")}` : error;
}
