import { expect, test, type Page } from "@playwright/test";
import { openWorkspace } from "./fixtures";

/**
 * The interactive API reference at /api/docs: it renders the app's OpenAPI document with the
 * library's bundle served by the app itself, under its own strict policy, without a CSP
 * violation and without a single request leaving loopback (no CDN, fonts, telemetry or proxy).
 */

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Every CSP violation the page reports (DOM event and console), and every non-loopback request. */
function watch(page: Page): { violations: string[]; external: string[] } {
  const violations: string[] = [];
  const external: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(msg.text())) violations.push(msg.text());
  });
  page.on("request", (request) => {
    const url = new URL(request.url());
    if ((url.protocol === "http:" || url.protocol === "https:") && !LOOPBACK_HOSTS.has(url.hostname)) external.push(request.url());
  });
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"}`);
    });
  });
  return { violations, external };
}

test.describe("API reference", () => {
  // Public like the OpenAPI document it renders: no session needed.
  test.use({ storageState: { cookies: [], origins: [] } });

  test.setTimeout(120_000);

  test("renders the OpenAPI operations under its own policy, with no CSP violation and no request off loopback", async ({ page }) => {
    const seen = watch(page);
    const response = await page.goto("/api/docs");
    expect(response?.status()).toBe(200);
    const csp = response!.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe-eval");

    // An operation from the document, by its summary: open the Suites group, then the operation.
    await page.getByRole("button", { name: "Open Group - Suites" }).click({ timeout: 60_000 });
    await page.getByRole("link", { name: /^List suites/ }).click();
    await expect(page.getByRole("heading", { name: "List suites" })).toBeVisible();
    await expect(page.getByText("/api/v1/suites", { exact: true }).first()).toBeVisible();

    // Late loads (web fonts are fetched once text needs them) have been asked for by now.
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    expect(seen.violations).toEqual([]);
    expect(seen.external).toEqual([]);
  });
});

test("the app shell links to the API reference", async ({ page }) => {
  await openWorkspace(page);
  const link = page.getByRole("link", { name: "API reference" });
  await expect(link).toHaveAttribute("href", "/api/docs");
});
