import Link from "next/link";
import { Breadcrumbs, type Crumb } from "./breadcrumbs";

export type PageHeaderProps = {
  title: React.ReactNode;
  description?: React.ReactNode;
  /** The list the page belongs to, linked as "← label" in place of a description (an agent's page → Agents). */
  back?: { href: string; label: string };
  actions?: React.ReactNode;
  /** A trail shown above the title. */
  breadcrumbs?: Crumb[];
};

/** The page's `<h1>` with its one-line description and the page-level actions on the right. */
export function PageHeader({ title, description, back, actions, breadcrumbs }: PageHeaderProps) {
  const line = back ? (
    <Link href={back.href} className="text-indigo-700 hover:underline">
      ← {back.label}
    </Link>
  ) : (
    description
  );
  return (
    <div className="mb-6 space-y-4">
      {breadcrumbs && <Breadcrumbs items={breadcrumbs} />}
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
          {line && <p className="mt-1 text-sm text-slate-600">{line}</p>}
        </div>
        {actions && <div className="flex flex-wrap items-center justify-end gap-2">{actions}</div>}
      </div>
    </div>
  );
}
