import { describe, expect, it } from "vitest";
import { maskSnapshotUrls, maskUrl, sameOrigin, urlOrigin } from "@/lib/url-secrets";

describe("URL secrets", () => {
  it("masks userinfo, query values and the fragment, keeping host, path and query keys", () => {
    expect(maskUrl("https://fn.azurewebsites.net/api/chat?code=abc123==&clientId=default")).toBe(
      "https://fn.azurewebsites.net/api/chat?code=••••&clientId=••••",
    );
    expect(maskUrl("https://user:pa55@agent.example:8443/v1#token=x")).toBe("https://••••@agent.example:8443/v1#••••");
    expect(maskUrl("http://localhost:11434/v1")).toBe("http://localhost:11434/v1");
    expect(maskUrl("not a url?secret=1")).toBe("not a url?••••");
  });

  it("compares origins: scheme, host and port", () => {
    expect(sameOrigin("https://a.example/v1", "https://A.example:443/other?x=1")).toBe(true);
    expect(sameOrigin("https://a.example/v1", "http://a.example/v1")).toBe(false);
    expect(sameOrigin("https://a.example/v1", "https://a.example:8443/v1")).toBe(false);
    expect(sameOrigin("https://a.example/v1", "https://b.example/v1")).toBe(false);
    expect(sameOrigin("nonsense", "nonsense")).toBe(false);
    expect(urlOrigin("https://a.example/x")).toBe("https://a.example");
  });

  it("masks url and base_url fields anywhere in a snapshot", () => {
    const snap = { http: { url: "https://x.example/a?code=1" }, model_config: { base_url: "https://u:p@y.example/v1" }, name: "n?x=1" };
    expect(maskSnapshotUrls(snap)).toEqual({
      http: { url: "https://x.example/a?code=••••" },
      model_config: { base_url: "https://••••@y.example/v1" },
      name: "n?x=1",
    });
    expect(maskSnapshotUrls(null)).toBeNull();
  });
});
