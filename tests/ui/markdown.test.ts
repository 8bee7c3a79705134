import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/ui/markdown";

/** Markdown from a file's extracted content, as the case view renders it. */
const render = (markdown: string) => renderToStaticMarkup(createElement(Markdown, null, markdown));

describe("Markdown", () => {
  it("renders GitHub tables as tables", () => {
    const html = render("| Region | Q1 |\n| --- | ---: |\n| North | 120 |");
    expect(html).toContain("<table");
    expect(html).toMatch(/<th[^>]*>Region<\/th>/);
    expect(html).toMatch(/<td[^>]*>North<\/td>/);
  });

  it("shows HTML as text, drops unsafe links and never loads images", () => {
    const html = render(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n[click](javascript:alert(1)) ![chart](https://example.com/c.png)',
    );
    expect(html).not.toMatch(/<script|<img|onerror="|javascript:|https:\/\/example\.com/);
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("[image: chart]");
  });
});
