"use client";
import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "next/navigation";
import { Badge } from "@/components/ui/card";

/**
 * The case just created, marked on the suite page: the form redirects with `?created=<id>`, the
 * case's row is tinted and labelled "New", and its link is focused (which scrolls it into view),
 * so the user sees where the case landed and can open it with Enter. The id is read once, at
 * mount: CaseNotice drops the parameter from the address bar right away, and the mark stays
 * until the next navigation.
 */

export const CREATED_PARAM = "created";

/** The id of the case created just before this page was opened, or null. */
export function useCreatedCaseId(): string | null {
  const searchParams = useSearchParams();
  const [id] = useState(() => searchParams.get(CREATED_PARAM));
  return id;
}

/** The row class of the new case: a tint and an outline. */
export const NEW_ROW_CLASS = "bg-green-50 ring-2 ring-green-500 ring-inset";

/** "New" after the case's name; focuses the row's first link once, when it mounts. */
export function NewCaseBadge() {
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    const link = ref.current?.closest("tr")?.querySelector<HTMLAnchorElement>("a[href]");
    link?.focus();
    link?.scrollIntoView({ block: "center" });
  }, []);
  return (
    <span ref={ref} className="ml-2">
      <Badge tone="green">New</Badge>
    </span>
  );
}
