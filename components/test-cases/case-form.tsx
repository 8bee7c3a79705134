"use client";
import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { FormProvider, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { TestCaseData } from "@/lib/test-cases/schemas";
import { createTestCaseAction, updateTestCaseAction } from "@/lib/test-cases/actions";
import { applyServerIssues } from "@/components/forms/server-issues";
import { useUnsavedChangesGuard } from "@/components/forms/unsaved-changes";
import { buttonClass } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { BasicsSection } from "./case-form-basics";
import { ConversationSection } from "./case-form-conversation";
import { ExpectationsSection } from "./case-form-expectations";
import { ChecksSection } from "./case-form-checks";
import { CaseFilesSection } from "./case-files-field";
import { CaseStatusBar } from "./case-status-bar";
import { CREATED_PARAM } from "./created-case";
import { fieldIssues, fieldLabel, userMessage, type FieldIssue } from "./form-errors";
import { caseFormSchema, caseToFormValues, draftToFormValues, emptyFormValues, FORM_FIELDS, type CaseFormValues } from "./form-values";
import type { CaseDraft } from "@/lib/traffic/dto";
import type { CaseFormSuite, TestCaseDto } from "@/lib/test-cases/dto";
import { CaseVariablesSection } from "@/components/variables/case-variables-section";
import { caseVariablesToRows, formPathForIssue } from "@/components/variables/case-variable-rows";
import { withAgentChecks } from "@/components/variables/agent-checks-resolver";

type Props = {
  /** Where the case lives, the suite's tags, its agent's tools and variables (the Variables section and placeholder checks). */
  suite: CaseFormSuite;
  canEdit: boolean;
} & ({ mode: "create"; testCase?: undefined; draft?: CaseDraft } | { mode: "edit"; testCase: TestCaseDto; draft?: undefined });

/**
 * The error summary: the form's message, then every field error named by its label and linked to
 * its field, and the server's issues that have no field.
 */
function FormErrors({ message, fields, other }: { message: string | null; fields: FieldIssue[]; other: string[] }) {
  if (!message) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700" data-testid="form-errors">
      <p>{message}</p>
      {(fields.length > 0 || other.length > 0) && (
        <ul className="mt-1 list-disc pl-5">
          {fields.map((f) => (
            <li key={f.path}>
              <a href={`#${f.path}`} className="underline" onClick={(e) => focusField(e, f.path)}>
                {f.label}
              </a>
              : {f.message}
            </li>
          ))}
          {other.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Moves focus to the field of an error path, or its closest enclosing field (`checks.0` for a check's type). */
function focusField(event: React.MouseEvent, path: string) {
  const parts = path.split(".");
  for (let n = parts.length; n > 0; n--) {
    const id = parts.slice(0, n).join(".");
    const el = document.getElementById(id) ?? document.getElementById(`${id}-error`);
    if (el) {
      event.preventDefault();
      el.scrollIntoView({ block: "center" });
      if (!el.hasAttribute("tabindex") && !/^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(el.tagName)) el.setAttribute("tabindex", "-1");
      el.focus();
      return;
    }
  }
}

/** Create or edit a test case: every test case format field plus checks, mode and ground truth. */
export function CaseForm(props: Props) {
  const { suite, canEdit, mode, testCase, draft } = props;
  const { workspaceId, suiteId, tags: suiteTags, tools, variableDefinitions } = suite;
  const router = useRouter();
  const suiteUrl = `/w/${workspaceId}/suites/${suiteId}`;
  const [formError, setFormError] = useState<string | null>(null);
  const [details, setDetails] = useState<string[]>([]);
  // After a successful save the page is left on purpose: no "discard?" prompt.
  const [saved, setSaved] = useState(false);
  const form = useForm<CaseFormValues, unknown, TestCaseData>({
    resolver: withAgentChecks(zodResolver(caseFormSchema), variableDefinitions),
    defaultValues: {
      ...(testCase ? caseToFormValues(testCase) : draft ? draftToFormValues(draft) : emptyFormValues()),
      variables: caseVariablesToRows(variableDefinitions, testCase?.variables ?? null),
    },
  });
  const { isSubmitting, isDirty, errors } = form.formState;
  const archived = testCase?.status === "archived";
  const readOnly = !canEdit || archived;
  useUnsavedChangesGuard(isDirty && !readOnly && !saved);

  const onSubmit = form.handleSubmit(
    async (data) => {
      setFormError(null);
      setDetails([]);
      const result =
        mode === "create"
          ? await createTestCaseAction(workspaceId, { suite_id: suiteId, test_case: data, ...(draft ? { source: draft.source } : {}) })
          : await updateTestCaseAction(workspaceId, { id: testCase.id, patch: withoutStatus(data) });
      if (!result.ok) {
        const labels = form.getValues("expected_outcomes").map((o) => o.label);
        const issues = result.issues.map((i) => ({ ...i, path: formPathForIssue(i.path, labels) }));
        const rest = applyServerIssues(form.setError, issues, FORM_FIELDS);
        setFormError(result.error);
        setDetails(rest.map((i) => (i.path ? `${fieldLabel(i.path)}: ${userMessage(i.message)}` : userMessage(i.message))));
        return;
      }
      setSaved(true);
      router.push(mode === "create" ? `${suiteUrl}?notice=created&${CREATED_PARAM}=${result.data.id}` : `${suiteUrl}?notice=saved`);
      router.refresh();
    },
    () => setFormError("Please fix the highlighted fields"),
  );

  return (
    <FormProvider {...form}>
      {mode === "edit" && canEdit && <CaseStatusBar workspaceId={workspaceId} suiteId={suiteId} testCase={testCase} dirty={isDirty} />}
      {archived && (
        <p className="mb-4 rounded-md border border-slate-300 bg-slate-100 px-3 py-2 text-sm text-slate-700">
          This test case is archived and read-only. {canEdit ? "Restore it to edit it." : ""}
        </p>
      )}
      {!canEdit && (
        <p className="mb-4 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-800">
          You have read-only access to this workspace.
        </p>
      )}
      <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={mode === "create" ? "New test case" : "Edit test case"}>
        <FormErrors message={formError} fields={fieldIssues(errors)} other={details} />
        <fieldset disabled={readOnly || isSubmitting} className="min-w-0 space-y-5">
          <BasicsSection mode={mode} status={testCase?.status} suiteTags={suiteTags} />
          <ConversationSection />
          <CaseFilesSection workspaceId={workspaceId} />
          <ExpectationsSection tools={tools} />
          <ChecksSection />
          <CaseVariablesSection definitions={variableDefinitions} />
        </fieldset>
        {!readOnly && (
          // Sticky: Save and Cancel stay in view at the bottom of the screen while the form scrolls.
          <div className="sticky bottom-0 z-10 -mx-1 flex flex-wrap items-center gap-2 border-t border-slate-200 bg-white/95 px-1 py-3 backdrop-blur">
            <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
              {mode === "create" ? "Create test case" : "Save changes"}
            </SubmitButton>
            <Link href={suiteUrl} className={buttonClass("secondary")}>
              Cancel
            </Link>
            {isDirty && (
              <span className="text-xs text-slate-600" data-testid="unsaved">
                Unsaved changes
              </span>
            )}
          </div>
        )}
      </form>
    </FormProvider>
  );
}

function withoutStatus<T extends { status?: unknown; sort_order?: unknown }>(data: T): Omit<T, "status" | "sort_order"> {
  const { status: _status, sort_order: _sortOrder, ...rest } = data;
  return rest;
}
