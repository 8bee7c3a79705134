import { describe, expect, it } from "vitest";
import { safeCallbackPath } from "@/lib/auth/redirect";

const origin = "https://assay.example.com";

describe("safeCallbackPath", () => {
  it.each([
    ["/\\evil.example", "/"],
    ["//evil.example", "/"],
    ["//evil.example/path", "/"],
    ["https://evil.example", "/"],
    ["https://evil.example/w/1", "/"],
    ["http://assay.example.com/w/1", "/"], // another scheme is another origin
    ["javascript:alert(1)", "/"],
    ["JavaScript:alert(document.cookie)", "/"],
    ["data:text/html,<script>alert(1)</script>", "/"],
    ["\\\\evil.example", "/"],
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"], // stays a path on this origin
    ["", "/"],
    [undefined, "/"],
    [null, "/"],
  ])("sends %j to %j", (value, expected) => {
    expect(safeCallbackPath(value, origin)).toBe(expected);
  });

  it("keeps paths, queries and hashes on this origin", () => {
    expect(safeCallbackPath("/invite/inv_abc", origin)).toBe("/invite/inv_abc");
    expect(safeCallbackPath("/w/1/suites?tab=runs#top", origin)).toBe("/w/1/suites?tab=runs#top");
    expect(safeCallbackPath("https://assay.example.com/w/1?x=1", origin)).toBe("/w/1?x=1");
    expect(safeCallbackPath("w/1", origin)).toBe("/w/1");
  });
});
