"use client";
import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { ActionButton, type ActionOutcome } from "./action-button";

/**
 * Stops something that is running (a run, a comparison, a matrix) after confirmation. It never
 * refreshes the page: the page polls its query, so invalidating `queryKey` shows the outcome,
 * whether the cancel went through or the thing had finished meanwhile.
 */
export function CancelButton<T>({
  confirm,
  action,
  queryKey,
  children,
}: {
  /** The confirmation dialog: what cancelling does to the parts not yet finished. */
  confirm: { title: string; description: string; confirmLabel: string };
  action: () => Promise<ActionOutcome<T> | void>;
  /** The polled query of the page, invalidated after the action whatever its outcome. */
  queryKey: QueryKey;
  children: React.ReactNode;
}) {
  const queryClient = useQueryClient();
  return (
    <ActionButton
      variant="danger"
      align="end"
      confirm={confirm}
      action={action}
      refresh="never"
      onSettled={() => queryClient.invalidateQueries({ queryKey })}
    >
      {children}
    </ActionButton>
  );
}
