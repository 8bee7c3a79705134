"use client";
import type { ActionOutcome } from "@/components/ui/action-button";
import { LaunchDialog, type DialogOpener } from "@/components/ui/launch-dialog";

/** The suite a launch dialog starts something in. */
export type SuiteTarget = { workspaceId: string; suiteId: string };

/** What one of a suite's launch dialogs shows, the options it loads for the suite and the form it renders with them. */
export type SuiteLauncher<T> = {
  /** The trigger button's text. */
  label: string;
  title: string;
  description: React.ReactNode;
  width: "md" | "lg" | "xl";
  options: {
    /** The server action that returns the form's options for the suite. */
    load: (workspaceId: string, input: { suite_id: string }) => Promise<ActionOutcome<T>>;
    /** Names them in the failure message: "<what> could not be loaded: …". */
    what: string;
    /** Shown while they load. */
    loading: string;
  };
  form: React.ComponentType<SuiteTarget & { options: T }>;
};

/**
 * The button of a suite page's launch dialog whose form needs options loaded for that suite (A/B
 * comparison, matrix run): the options are loaded on first open and cached per dialog and suite,
 * and the form gets the suite and the loaded options.
 */
export function suiteLaunchButton<T>({ label, title, description, width, options, form: Form }: SuiteLauncher<T>) {
  /** With `opener` the dialog has no button of its own (the suite toolbar's menu opens it). */
  function SuiteLaunchButton({ workspaceId, suiteId, opener }: SuiteTarget & { opener?: DialogOpener }) {
    return (
      <LaunchDialog
        label={label}
        variant="secondary"
        title={title}
        description={description}
        width={width}
        opener={opener}
        options={{
          queryKey: ["suite-launch-options", label, workspaceId, suiteId],
          action: () => options.load(workspaceId, { suite_id: suiteId }),
          what: options.what,
          loading: options.loading,
        }}
      >
        {(loaded) => <Form workspaceId={workspaceId} suiteId={suiteId} options={loaded} />}
      </LaunchDialog>
    );
  }
  SuiteLaunchButton.displayName = `${label}Button`;
  return SuiteLaunchButton;
}
