import { expect, type Page } from "@playwright/test";
import { FAKE_OPENAI_PORT } from "../playwright.config";

export const ADMIN = { email: "admin@assay.test", password: "correct-horse-battery", workspace: "QA Team" };
export const FAKE_OPENAI_URL = `http://127.0.0.1:${FAKE_OPENAI_PORT}/v1`;

/** The workspace id of the signed-in admin (from the URL after "/"). */
export async function openWorkspace(page: Page): Promise<string> {
  await page.goto("/");
  await page.waitForURL(/\/w\/[0-9a-f-]{36}/);
  const match = /\/w\/([0-9a-f-]{36})/.exec(page.url());
  expect(match).not.toBeNull();
  return match![1]!;
}

/** Unique names so specs can run in any order against one database. */
export function unique(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
}
