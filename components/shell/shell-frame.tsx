"use client";
import { useEffect, useRef, useState } from "react";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

const SIDEBAR_ID = "app-sidebar";

/**
 * The sidebar's frame: beside the page from the `md` breakpoint, and on small screens a top bar
 * with a "Menu" button that opens it over the page. The open menu takes focus (its first link),
 * closes on Escape, on the backdrop and on navigation, and gives focus back to the button.
 */
export function ShellFrame({ brand, children }: { brand: React.ReactNode; children: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState<string | null>(null);
  const pathname = usePathname();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLElement>(null);

  // A link followed inside the menu closes it: the menu remembers the page it was opened on.
  if (open && openedAt !== pathname) {
    setOpen(false);
    setOpenedAt(null);
  }

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>("a[href], button, select")?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  return (
    <>
      <div className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-2 md:hidden">
        {brand}
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={SIDEBAR_ID}
          onClick={() => {
            setOpenedAt(pathname);
            setOpen((o) => !o);
          }}
          className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="h-4 w-4">
            <path d="M3 5h14v2H3V5Zm0 4h14v2H3V9Zm0 4h14v2H3v-2Z" />
          </svg>
          Menu
        </button>
      </div>
      {open && <div aria-hidden="true" className="fixed inset-0 z-30 bg-slate-900/40 md:hidden" onClick={close} />}
      <aside
        ref={panel}
        id={SIDEBAR_ID}
        aria-label="Sidebar"
        className={cn(
          "w-60 shrink-0 flex-col border-r border-slate-200 bg-white md:sticky md:top-0 md:flex md:h-screen md:overflow-y-auto",
          open ? "fixed inset-y-0 left-0 z-40 flex max-w-[85vw] overflow-y-auto shadow-xl" : "hidden",
        )}
      >
        {children}
      </aside>
    </>
  );
}
