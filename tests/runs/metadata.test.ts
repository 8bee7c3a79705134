import { describe, expect, it } from "vitest";
import { branchAndCommit, linkableUrl, runMetadataView, shortCommit } from "@/lib/runs/metadata";

describe("run metadata as shown", () => {
  it("links a build URL only when it is absolute http(s)", () => {
    expect(linkableUrl("https://ci.example.com/builds/12")).toBe("https://ci.example.com/builds/12");
    expect(linkableUrl(" http://ci.local:8080/job/3 ")).toBe("http://ci.local:8080/job/3");
    for (const bad of [
      "javascript:alert(1)",
      "JAVASCRIPT:alert(1)",
      "data:text/html,<b>x</b>",
      "//evil.example/x",
      "/builds/12",
      "ci.example.com",
      "ftp://ci/x",
      "",
    ])
      expect(linkableUrl(bad), bad).toBeNull();
  });

  it("shortens a hex commit id to 7 characters and keeps other values whole", () => {
    expect(shortCommit("0f3c9a2e5b7d1c4f8a6e9b0d2c3f4a5b6c7d8e9f")).toBe("0f3c9a2");
    expect(shortCommit("0f3c9a2")).toBe("0f3c9a2");
    expect(shortCommit("v1.2.3")).toBe("v1.2.3");
  });

  it("splits the known keys from the others", () => {
    const view = runMetadataView({ commit: "0f3c9a2e5b7d", branch: " main ", build_url: "javascript:alert(1)", pr: "17", empty: " " });
    expect(view).toEqual({
      branch: "main",
      commit: "0f3c9a2e5b7d",
      shortCommit: "0f3c9a2",
      buildHref: null,
      buildUrl: "javascript:alert(1)",
      others: [["pr", "17"]],
    });
    expect(runMetadataView(null)).toMatchObject({ branch: null, commit: null, buildHref: null, others: [] });
  });

  it("says branch and commit in one phrase, or nothing", () => {
    expect(branchAndCommit({ branch: "main", commit: "0f3c9a2e5b7d" })).toBe("main · 0f3c9a2");
    expect(branchAndCommit({ commit: "abc" })).toBe("abc");
    expect(branchAndCommit({ build_url: "https://ci/x" })).toBeNull();
    expect(branchAndCommit({})).toBeNull();
  });
});
