import ReactMarkdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";
import { cn } from "./cn";

/**
 * Markdown rendered as React elements (GitHub-flavoured: tables, task lists, strikethrough), for
 * text that comes from outside — a file's extracted content. Nothing in it runs or loads:
 * react-markdown never builds raw HTML (HTML in the text shows as text), unsafe link protocols
 * (`javascript:`) are dropped by its URL filter, and images show their alt text instead of being
 * fetched. Tables scroll sideways on narrow screens.
 */
export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={cn("space-y-2 text-sm break-words text-slate-800", className)}>
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={COMPONENTS}>
        {children}
      </ReactMarkdown>
    </div>
  );
}

const COMPONENTS: Components = {
  h1: ({ children }) => <p className="text-base font-semibold">{children}</p>,
  h2: ({ children }) => <p className="text-sm font-semibold">{children}</p>,
  h3: ({ children }) => <p className="text-sm font-semibold">{children}</p>,
  h4: ({ children }) => <p className="text-sm font-medium">{children}</p>,
  h5: ({ children }) => <p className="text-sm font-medium">{children}</p>,
  h6: ({ children }) => <p className="text-sm font-medium">{children}</p>,
  ul: ({ children }) => <ul className="list-disc space-y-0.5 pl-5">{children}</ul>,
  ol: ({ children }) => <ol className="list-decimal space-y-0.5 pl-5">{children}</ol>,
  blockquote: ({ children }) => <blockquote className="border-l-2 border-slate-300 pl-3 text-slate-600">{children}</blockquote>,
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 font-mono text-xs">{children}</code>,
  pre: ({ children }) => <pre className="relative overflow-x-auto rounded-md bg-slate-100 p-2 text-xs whitespace-pre-wrap">{children}</pre>,
  a: ({ href, children }) => (
    <a href={href} rel="noreferrer nofollow" className="text-indigo-700 underline">
      {children}
    </a>
  ),
  img: ({ alt }) => <span className="text-slate-500 italic">[image{alt ? `: ${alt}` : ""}]</span>,
  table: ({ children }) => (
    // Focusable, so a table wider than the screen can be scrolled by keyboard.
    <div tabIndex={0} className="relative overflow-x-auto">
      <table className="min-w-full border-collapse text-xs">{children}</table>
    </div>
  ),
  th: ({ children, style }) => (
    <th style={style} className="border border-slate-300 bg-slate-100 px-2 py-1 text-left font-semibold">
      {children}
    </th>
  ),
  td: ({ children, style }) => (
    <td style={style} className="border border-slate-300 px-2 py-1 align-top">
      {children}
    </td>
  ),
};
