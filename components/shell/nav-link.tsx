"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

/**
 * A nav item; `label` names it for screen readers when its content is more than its name (a count
 * badge). `exact`: current on its own path only (Home, whose path starts every workspace page's).
 */
export function NavLink({
  href,
  label,
  exact = false,
  children,
}: {
  href: string;
  label?: string;
  exact?: boolean;
  children: React.ReactNode;
}) {
  const pathname = usePathname();
  const active = pathname === href || (!exact && pathname.startsWith(`${href}/`));
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      aria-label={label}
      className={cn(
        "block rounded-md px-3 py-2",
        active ? "bg-indigo-50 font-medium text-indigo-800" : "text-slate-700 hover:bg-slate-100",
      )}
    >
      {children}
    </Link>
  );
}
