import { NavLink } from "./nav-link";
import { countText } from "./streamed-count";
import { cn } from "@/components/ui/cn";

/** A sidebar item with a count badge (Alerts): the count is part of its accessible name, the badge is for the eye. */
export function CountedNavLink({
  href,
  name,
  open,
  countLabel,
  tone = "indigo",
}: {
  href: string;
  name: string;
  /** null while the count streams in. */
  open: number | null;
  /** "3 open": what the count means, after the name. */
  countLabel: (open: number) => string;
  tone?: "indigo" | "red";
}) {
  return (
    <NavLink href={href} label={open ? `${name}, ${countLabel(open)}` : name}>
      <span className="flex items-center justify-between gap-2">
        <span>{name}</span>
        {open ? (
          <span
            aria-hidden="true"
            className={cn(
              "min-w-5 rounded-full px-1.5 text-center text-xs leading-5 font-semibold text-white",
              tone === "red" ? "bg-red-600" : "bg-indigo-600",
            )}
          >
            {countText(open)}
          </span>
        ) : null}
      </span>
    </NavLink>
  );
}
