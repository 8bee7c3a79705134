"use client";
import { useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { FormProvider, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { TestCaseData } from "@/lib/test-cases/schemas";
import { createTestCaseAction, updateTestCaseAction } from "@/lib/test-cases/actions";
import { applyServerIssues } from "@/components/forms/server-issues";
import { buttonClass } from "@/components/ui/button";
import { SubmitButton } from "@/components/ui/submit-button";
import { BasicsSection } from "./case-form-basics";
import { ConversationSection } from "./case-form-conversation";
import { ExpectationsSection } from "./case-form-expectations";
import { ChecksSection } from "./case-form-checks";
import { CaseFilesSection } from "./case-files-field";
import { CaseStatusBar } from "./case-status-bar";
import { caseFormSchema, caseToFormValues, emptyFormValues, FORM_FIELDS, type CaseFormValues } from "./form-values";
import type { AgentToolOption, TestCaseDto } from "@/lib/test-cases/dto";
import type { VariableDefinition } from "@/lib/agents/schemas";
import { CaseVariablesSection } from "@/components/variables/case-variables-section";
import { caseVariablesToRows, formPathForIssue } from "@/components/variables/case-variable-rows";
import { withAgentChecks } from "@/components/variables/agent-checks-resolver";

type Props = {
  workspaceId: string;
  suiteId: string;
  suiteTags: string[];
  tools: AgentToolOption[];
  /** The variables model: the suite agent's variables (the Variables section and placeholder checks). */
  variableDefinitions?: VariableDefinition[];
  canEdit: boolean;
} & ({ mode: "create"; testCase?: undefined } | { mode: "edit"; testCase: TestCaseDto });

function FormErrors({ message, details }: { message: string | null; details: string[] }) {
  if (!message) return null;
  return (
    <div role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      <p>{message}</p>
      {details.length > 0 && (
        <ul className="mt-1 list-disc pl-5">
          {details.map((d) => (
            <li key={d}>{d}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Create or edit a test case: every test case format field plus checks, mode and ground truth. */
export function CaseForm(props: Props) {
  const { workspaceId, suiteId, suiteTags, tools, canEdit, mode, testCase, variableDefinitions = [] } = props;
  const router = useRouter();
  const suiteUrl = `/w/${workspaceId}/suites/${suiteId}`;
  const [formError, setFormError] = useState<string | null>(null);
  const [details, setDetails] = useState<string[]>([]);
  const form = useForm<CaseFormValues, unknown, TestCaseData>({
    resolver: withAgentChecks(zodResolver(caseFormSchema), variableDefinitions),
    defaultValues: {
      ...(testCase ? caseToFormValues(testCase) : emptyFormValues()),
      variables: caseVariablesToRows(variableDefinitions, testCase?.variables ?? null),
    },
  });
  const { isSubmitting, isDirty } = form.formState;
  const archived = testCase?.status === "archived";
  const readOnly = !canEdit || archived;

  const onSubmit = form.handleSubmit(
    async (data) => {
      setFormError(null);
      setDetails([]);
      const result =
        mode === "create"
          ? await createTestCaseAction(workspaceId, { suite_id: suiteId, test_case: data })
          : await updateTestCaseAction(workspaceId, { id: testCase.id, patch: withoutStatus(data) });
      if (!result.ok) {
        const labels = form.getValues("expected_outcomes").map((o) => o.label);
        const issues = result.issues.map((i) => ({ ...i, path: formPathForIssue(i.path, labels) }));
        const rest = applyServerIssues(form.setError, issues, FORM_FIELDS);
        setFormError(result.error);
        setDetails(rest.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)));
        return;
      }
      router.push(`${suiteUrl}?notice=${mode === "create" ? "created" : "saved"}`);
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
        <FormErrors message={formError} details={details} />
        <fieldset disabled={readOnly || isSubmitting} className="min-w-0 space-y-5">
          <BasicsSection mode={mode} status={testCase?.status} suiteTags={suiteTags} />
          <ConversationSection />
          <CaseFilesSection workspaceId={workspaceId} />
          <ExpectationsSection tools={tools} />
          <ChecksSection />
          <CaseVariablesSection definitions={variableDefinitions} />
        </fieldset>
        {!readOnly && (
          <div className="flex items-center gap-2">
            <SubmitButton pending={isSubmitting} pendingLabel="Saving…">
              {mode === "create" ? "Create test case" : "Save changes"}
            </SubmitButton>
            <Link href={suiteUrl} className={buttonClass("secondary")}>
              Cancel
            </Link>
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
