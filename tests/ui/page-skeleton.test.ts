import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import RunLoading from "@/app/w/[workspaceId]/runs/[runId]/loading";
import ComparisonLoading from "@/app/w/[workspaceId]/comparisons/[comparisonId]/loading";
import { PageSkeleton, SkeletonBlock, SkeletonCard } from "@/components/ui/page-skeleton";

/** A page asking for placeholders wider than any phone. */
function WideSkeleton() {
  return PageSkeleton({
    label: "Loading…",
    titleWidth: "w-[40rem]",
    children: [
      createElement(SkeletonBlock, { key: "bar", className: "h-4 w-[50rem]" }),
      createElement(SkeletonCard, { key: "card", className: "h-8 w-[60rem]" }),
    ],
  });
}

/** The class lists of every placeholder (pulsing) element in `html`. */
const placeholders = (html: string) => [...html.matchAll(/class="([^"]*animate-pulse[^"]*)"/g)].map((m) => m[1]!);

describe("loading skeletons", () => {
  // A title bar sized for a desktop (w-96, 384 px) once scrolled a 390 px phone sideways while the run page loaded.
  it("never grow past their container, whatever width a page gives them", () => {
    const pages = [
      renderToStaticMarkup(createElement(RunLoading)),
      renderToStaticMarkup(createElement(ComparisonLoading)),
      renderToStaticMarkup(createElement(WideSkeleton)),
    ];
    for (const html of pages) {
      const classes = placeholders(html);
      expect(classes.length).toBeGreaterThan(1);
      for (const c of classes) expect(c.split(" ")).toContain("max-w-full");
    }
  });
});
