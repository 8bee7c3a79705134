"use client";
import { useEffect, useRef } from "react";

/**
 * A guard against losing a form's unsaved edits. Reloading or closing the tab asks through the
 * browser's own `beforeunload` prompt. Next's app router has no route-change events to veto, so
 * in-app navigation is caught where it starts: a click on a same-origin link, seen in the
 * capture phase before `next/link` handles it, asks "Discard unsaved changes?" and is cancelled
 * unless confirmed. Links that do not leave the page (a `#field` anchor), open elsewhere (new
 * tab, download) or carry modifier keys are let through.
 */

export const DISCARD_MESSAGE = "Discard unsaved changes?";

export type LinkClick = {
  href: string | null;
  target: string | null;
  download: boolean;
  button: number;
  modified: boolean;
  defaultPrevented: boolean;
};

/** Whether clicking this link would navigate this tab away from `current` (and so lose the edits). */
export function leavesPage(click: LinkClick, current: string): boolean {
  if (!click.href || click.defaultPrevented || click.button !== 0 || click.modified || click.download) return false;
  if (click.target && click.target !== "_self") return false;
  let next: URL;
  let here: URL;
  try {
    here = new URL(current);
    next = new URL(click.href, here);
  } catch {
    return false;
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") return false;
  // Only the fragment differs: the browser scrolls, nothing is lost.
  return !(next.origin === here.origin && next.pathname === here.pathname && next.search === here.search && next.hash !== "");
}

/** While `dirty`, asks before the page is left by a link, a reload or closing the tab. */
export function useUnsavedChangesGuard(dirty: boolean, message = DISCARD_MESSAGE) {
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = "";
    };
    const onClick = (event: MouseEvent) => {
      if (!dirtyRef.current) return;
      const anchor = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!(anchor instanceof HTMLAnchorElement)) return;
      const click: LinkClick = {
        href: anchor.getAttribute("href"),
        target: anchor.getAttribute("target"),
        download: anchor.hasAttribute("download"),
        button: event.button,
        modified: event.metaKey || event.ctrlKey || event.shiftKey || event.altKey,
        defaultPrevented: event.defaultPrevented,
      };
      if (!leavesPage(click, window.location.href)) return;
      if (window.confirm(message)) {
        // Confirmed: the edits are given up, so the navigation must not ask again.
        dirtyRef.current = false;
        return;
      }
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [message]);
}
