import { expect, test, type Page, type Response } from "@playwright/test";
import { openWorkspace } from "./fixtures";

/** Collects CSP violations reported by the page (the DOM event) and by the browser console. */
function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(msg.text()))
      violations.push(`console: ${msg.text()}`);
  });
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(
        `Content Security Policy violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`,
      );
    });
  });
  return violations;
}

function expectPageHeaders(response: Response | null) {
  expect(response).not.toBeNull();
  const h = response!.headers();
  const csp = h["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "connect-src 'self'"]) {
    expect(csp).toContain(directive);
  }
  expect(h["x-frame-options"]).toBe("DENY");
  expect(h["x-content-type-options"]).toBe("nosniff");
  expect(h["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  return /'nonce-([^']+)'/.exec(csp)![1]!;
}

test.describe("security headers", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("the sign-in page has a nonce CSP, frame and sniffing protection, and runs without CSP violations", async ({ page }) => {
    const violations = watchCsp(page);
    const first = await page.goto("/sign-in");
    const nonce = expectPageHeaders(first);
    // Next puts the request's nonce on its own scripts; every script tag carries it.
    const scripts = await page.locator("script").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((n) => n === nonce)).toBe(true);
    // The page is interactive (its scripts ran): client-side validation answers.
    await expect(page.getByLabel("Email")).toBeVisible();
    const second = await page.goto("/sign-in");
    expect(expectPageHeaders(second)).not.toBe(nonce);
    expect(violations).toEqual([]);
  });
});

test("a workspace page and an API response carry the headers, with no CSP violations while navigating", async ({ page }) => {
  const violations = watchCsp(page);
  const workspaceId = await openWorkspace(page);
  const response = await page.goto(`/w/${workspaceId}/model-configs`);
  expectPageHeaders(response);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Client-side navigation (scripts loaded through 'strict-dynamic') works.
  await page.getByRole("link", { name: "Agents" }).first().click();
  await page.waitForURL(/\/agents/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

  // A form page (zod in the browser) and the suites list.
  for (const path of ["agents/new", "model-configs/new", "suites"]) {
    expectPageHeaders(await page.goto(`/w/${workspaceId}/${path}`));
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  }
  await page.goto(`/w/${workspaceId}/agents/new`);
  // Client-side validation (zod, jitless) answers without a CSP violation.
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Name is required")).toBeVisible();

  const api = await page.request.get("/api/health");
  expect(api.headers()["x-frame-options"]).toBe("DENY");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");
  expect(api.headers()["content-security-policy"]).toContain("default-src 'none'");
  expect(violations).toEqual([]);
});
