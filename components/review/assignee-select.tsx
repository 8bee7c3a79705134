"use client";
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { assignReviewItemAction } from "@/lib/review/actions";
import { NamedOptions, SelectField } from "@/components/ui/field";

/** Who should label the item (editors and above assign); saved on change. */
export function AssigneeSelect({
  workspaceId,
  itemId,
  assigneeId,
  members,
}: {
  workspaceId: string;
  itemId: string;
  assigneeId: string | null;
  members: { id: string; name: string }[];
}) {
  const router = useRouter();
  const [value, setValue] = useState(assigneeId ?? "");
  const [error, setError] = useState<string | undefined>();
  const [pending, startTransition] = useTransition();

  const assign = (next: string) => {
    const previous = value;
    setValue(next);
    setError(undefined);
    startTransition(async () => {
      const result = await assignReviewItemAction(workspaceId, { id: itemId, assignee_id: next || null });
      if (!result.ok) {
        setValue(previous);
        setError(result.issues.find((i) => i.path === "assignee_id")?.message ?? result.error);
        return;
      }
      router.refresh();
    });
  };

  return (
    <SelectField
      id="review-assignee"
      label="Assigned to"
      error={error}
      value={value}
      disabled={pending}
      onChange={(e) => assign(e.target.value)}
    >
      <NamedOptions items={members} none="Nobody" />
    </SelectField>
  );
}
