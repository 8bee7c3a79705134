import type { Metadata } from "next";

/** Shared pages are for the people a link was given to: never indexed, nor followed by crawlers. */
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default function ShareLayout({ children }: { children: React.ReactNode }) {
  return children;
}
