import type { Crumb } from "@/components/ui/breadcrumbs";

/** The suite's pages that sit in a trail between the suite and what is shown (a run, a comparison…). */
const SECTIONS = { runs: "Runs", comparisons: "Comparisons", matrices: "Matrix runs" } as const;

/**
 * The trail of a page inside a suite: Suites / the suite [/ one of its sections], then `rest`.
 * A deleted suite's runs and experiments stay readable, so the suite is named "(deleted)" and its
 * own pages, gone with it, are text rather than links.
 */
export function suiteCrumbs(
  workspaceId: string,
  suite: { id: string; name: string; deleted?: boolean },
  section: keyof typeof SECTIONS | null,
  ...rest: Crumb[]
): Crumb[] {
  const suiteHref = `/w/${workspaceId}/suites/${suite.id}`;
  const live = (href: string) => (suite.deleted ? null : href);
  return [
    { label: "Suites", href: `/w/${workspaceId}/suites` },
    { label: suite.deleted ? `${suite.name} (deleted)` : suite.name, href: live(suiteHref) },
    ...(section ? [{ label: SECTIONS[section], href: live(`${suiteHref}/${section}`) }] : []),
    ...rest,
  ];
}
