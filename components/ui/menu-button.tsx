"use client";
import { useEffect, useId, useRef, useState } from "react";
import Link from "next/link";
import { buttonClass } from "./button";
import { cn } from "./cn";

/**
 * A menu button (the WAI-ARIA menu button pattern): a button with aria-haspopup and
 * aria-expanded that opens a list of menu items — links to go somewhere, actions to do
 * something. Opening moves focus to the first item; Arrow keys, Home and End move between items;
 * Escape closes and returns focus to the button; Tab or a click elsewhere closes it.
 */

export type MenuEntry =
  | { kind: "link"; label: string; href: string }
  | { kind: "action"; label: string; onSelect: () => void; disabled?: boolean }
  | { kind: "separator"; key: string };

export function MenuButton({ label, entries, className }: { label: string; entries: MenuEntry[]; className?: string }) {
  const uid = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? [])];
  const focusItem = (index: number) => {
    const all = items();
    if (all.length > 0) all[(index + all.length) % all.length]!.focus();
  };
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])')?.focus();
    const outside = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    document.addEventListener("pointerdown", outside);
    return () => document.removeEventListener("pointerdown", outside);
  }, [open]);

  const onMenuKey = (e: React.KeyboardEvent) => {
    const all = items();
    const i = all.indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusItem(i + 1),
      ArrowUp: () => focusItem(i - 1),
      Home: () => focusItem(0),
      End: () => focusItem(all.length - 1),
      Escape: () => close(true),
    };
    if (e.key === "Tab") return setOpen(false);
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    move();
  };

  const itemClass =
    "block w-full px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-indigo-50 focus:outline-none aria-disabled:text-slate-400";

  return (
    <div className={cn("relative", className)}>
      <button
        ref={button}
        type="button"
        id={`${uid}-button`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${uid}-menu`}
        className={buttonClass("secondary")}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown" || e.key === "ArrowUp") {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        {label} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          ref={menu}
          id={`${uid}-menu`}
          role="menu"
          aria-labelledby={`${uid}-button`}
          onKeyDown={onMenuKey}
          className="absolute right-0 z-20 mt-1 w-56 max-w-[calc(100vw-2rem)] rounded-md border border-slate-200 bg-white py-1 shadow-lg"
        >
          {entries.map((entry) =>
            entry.kind === "separator" ? (
              <div key={entry.key} role="separator" className="my-1 border-t border-slate-200" />
            ) : entry.kind === "link" ? (
              <Link key={entry.label} href={entry.href} role="menuitem" tabIndex={-1} className={itemClass} onClick={() => setOpen(false)}>
                {entry.label}
              </Link>
            ) : (
              <button
                key={entry.label}
                type="button"
                role="menuitem"
                tabIndex={-1}
                aria-disabled={entry.disabled || undefined}
                className={itemClass}
                onClick={() => {
                  if (entry.disabled) return;
                  close(true);
                  entry.onSelect();
                }}
              >
                {entry.label}
              </button>
            ),
          )}
        </div>
      )}
    </div>
  );
}
