// Read-only share links: the API's roles and validation, the workspace switch (off by default),
// expiry and revocation, isolation between workspaces, and what the public page's loaders hand
// to the page: the report's verdicts and reasons, never a secret of the agent, the model
// configuration, the LLM calls or the members.
import { beforeAll, describe, expect, it } from "vitest";
import { NextRequest } from "next/server";
import { renderToStaticMarkup } from "react-dom/server";
import { db } from "@/lib/db";
import { encryptSecret } from "@/lib/crypto";
import { POST as createRunLink, GET as listRunLinks } from "@/app/api/v1/runs/[id]/share-links/route";
import { POST as createComparisonLink } from "@/app/api/v1/comparisons/[id]/share-links/route";
import { DELETE as revokeLink } from "@/app/api/v1/share-links/[id]/route";
import { loadSharedCase, loadSharedReport } from "@/lib/share-links/loaders";
import { SharedRunReportView } from "@/components/share/shared-run-report";
import { SharedCaseView } from "@/components/share/shared-case";
import { makeApiKey, makeSuiteWithCases, makeWorkspace, runWithOutcomes } from "../helpers/factories";

type Handler = (req: NextRequest, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function call(handler: Handler, o: { method: string; token: string; id: string; body?: unknown }) {
  const headers = new Headers({ authorization: `Bearer ${o.token}` });
  if (o.body !== undefined) headers.set("content-type", "application/json");
  const req = new NextRequest(new URL(`/api/v1/x/${o.id}`, "http://localhost"), {
    method: o.method,
    headers,
    body: o.body === undefined ? undefined : JSON.stringify(o.body),
  });
  const res = await handler(req, { params: Promise.resolve({ id: o.id }) });
  return { status: res.status, json: await res.json() };
}

const SECRETS = {
  header: "hdr-secret-9f2c",
  urlPassword: "url-secret-71aa",
  modelKey: "sk-model-secret-55d1",
  systemPrompt: "SYSTEM-PROMPT-SECRET-3b8e",
};

/** A workspace with sharing on, viewer/editor/admin keys and a finished run of three cases (one failed, one errored). */
async function sharedWorkspace() {
  const { workspace, ctx, user } = await makeWorkspace("owner");
  await db.workspace.update({ where: { id: workspace.id }, data: { sharingEnabled: true } });
  const keys = {
    viewer: await makeApiKey(workspace.id, "viewer"),
    editor: await makeApiKey(workspace.id, "editor"),
    admin: await makeApiKey(workspace.id, "admin"),
  };
  const { suite, agent } = await makeSuiteWithCases(ctx, 3);
  const run = await runWithOutcomes(ctx, suite.id, { "case 0": "failed", "case 1": "error" });
  return { workspace, ctx, user, keys, suite, agent, run };
}

let a: Awaited<ReturnType<typeof sharedWorkspace>>;
let b: Awaited<ReturnType<typeof sharedWorkspace>>;

beforeAll(async () => {
  a = await sharedWorkspace();
  b = await sharedWorkspace();
});

async function newLink(w = a, days?: number) {
  const res = await call(createRunLink, {
    method: "POST",
    token: w.keys.editor,
    id: w.run.id,
    body: days === undefined ? undefined : { expires_in_days: days },
  });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return res.json as { id: string; token: string; path: string; expires_at: string; status: string };
}

describe("share links through the API", () => {
  it("lets an editor create one (7 days by default), a viewer only list them, and shows the token only once", async () => {
    const before = Date.now();
    const link = await newLink();
    expect(link.path).toBe(`/share/${link.token}`);
    expect(link.status).toBe("active");
    const days = (Date.parse(link.expires_at) - before) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThan(7.01);

    const refused = await call(createRunLink, { method: "POST", token: a.keys.viewer, id: a.run.id, body: {} });
    expect(refused.status).toBe(403);

    const listed = await call(listRunLinks, { method: "GET", token: a.keys.viewer, id: a.run.id });
    expect(listed.status).toBe(200);
    expect(listed.json.data.map((l: { id: string }) => l.id)).toContain(link.id);
    expect(JSON.stringify(listed.json)).not.toContain(link.token);
    // Only the hash is stored.
    const row = await db.shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).not.toContain(link.token);
  });

  it("refuses an expiry outside 1–90 days, naming the field", async () => {
    for (const days of [0, 91, 2.5]) {
      const res = await call(createRunLink, { method: "POST", token: a.keys.editor, id: a.run.id, body: { expires_in_days: days } });
      expect(res.status).toBe(400);
      expect(res.json.error.issues[0].path).toBe("expires_in_days");
    }
  });

  it("lets an editor revoke, not a viewer; the page is gone at once", async () => {
    const link = await newLink();
    expect(await loadSharedReport(link.token)).not.toBeNull();
    expect((await call(revokeLink, { method: "DELETE", token: a.keys.viewer, id: link.id })).status).toBe(403);
    const revoked = await call(revokeLink, { method: "DELETE", token: a.keys.editor, id: link.id });
    expect(revoked.status).toBe(200);
    expect(revoked.json.status).toBe("revoked");
    expect(await loadSharedReport(link.token)).toBeNull();
  });

  it("stops an expired link and lists it as expired", async () => {
    const link = await newLink(a, 1);
    await db.shareLink.update({ where: { id: link.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await loadSharedReport(link.token)).toBeNull();
    const listed = await call(listRunLinks, { method: "GET", token: a.keys.viewer, id: a.run.id });
    expect(listed.json.data.find((l: { id: string }) => l.id === link.id).status).toBe("expired");
  });

  it("answers 403 with the reason while sharing is off, and turning it off stops existing links", async () => {
    const link = await newLink(b);
    expect(await loadSharedReport(link.token)).not.toBeNull();
    await db.workspace.update({ where: { id: b.workspace.id }, data: { sharingEnabled: false } });
    try {
      const res = await call(createRunLink, { method: "POST", token: b.keys.admin, id: b.run.id, body: {} });
      expect(res.status).toBe(403);
      expect(res.json.error.message).toMatch(/Sharing is turned off/);
      expect(await loadSharedReport(link.token)).toBeNull();
    } finally {
      await db.workspace.update({ where: { id: b.workspace.id }, data: { sharingEnabled: true } });
    }
  });

  it("is off for a new workspace", async () => {
    const { workspace } = await makeWorkspace("owner");
    expect((await db.workspace.findUniqueOrThrow({ where: { id: workspace.id } })).sharingEnabled).toBe(false);
  });

  it("keeps workspaces apart: another workspace's key gets 404, and a token opens only its own run's cases", async () => {
    const link = await newLink(a);
    expect((await call(createRunLink, { method: "POST", token: b.keys.admin, id: a.run.id, body: {} })).status).toBe(404);
    expect((await call(listRunLinks, { method: "GET", token: b.keys.admin, id: a.run.id })).status).toBe(404);
    expect((await call(revokeLink, { method: "DELETE", token: b.keys.admin, id: link.id })).status).toBe(404);
    expect((await call(createComparisonLink, { method: "POST", token: a.keys.editor, id: a.run.id, body: {} })).status).toBe(404);

    const other = await newLink(b);
    const aCase = await db.caseResult.findFirstOrThrow({ where: { runId: a.run.id } });
    const bCase = await db.caseResult.findFirstOrThrow({ where: { runId: b.run.id } });
    expect(await loadSharedCase(other.token, aCase.id)).toBeNull();
    expect(await loadSharedCase(other.token, bCase.id)).not.toBeNull();
    expect(await loadSharedCase(`${link.token.slice(0, -1)}x`, aCase.id)).toBeNull();
    expect(await loadSharedReport("shr_not-a-token")).toBeNull();
  });
});

describe("the shared page's data", () => {
  it("has the report's verdicts and reasons, failures first, and none of the secrets around the run", async () => {
    // Secrets everywhere a careless page could pick them up: the agent's headers and URL, the
    // run's agent snapshot, the model configuration's key, the LLM call's request, the system prompt.
    const mc = await db.modelConfig.create({
      data: {
        workspaceId: a.workspace.id,
        name: `mc-secret-${Date.now()}`,
        baseUrl: `http://user:${SECRETS.urlPassword}@127.0.0.1:9/v1`,
        model: "m",
        apiKeyEncrypted: encryptSecret(SECRETS.modelKey),
      },
    });
    await db.agent.update({
      where: { id: a.agent.id },
      data: {
        modelConfigId: mc.id,
        systemPrompt: SECRETS.systemPrompt,
        httpUrl: `http://user:${SECRETS.urlPassword}@127.0.0.1:9/agent`,
        httpHeadersEncrypted: encryptSecret(JSON.stringify({ Authorization: `Bearer ${SECRETS.header}` })),
        httpHeaderNames: ["Authorization"],
      },
    });
    await db.run.update({
      where: { id: a.run.id },
      data: {
        agentSnapshot: {
          system_prompt: SECRETS.systemPrompt,
          http_url: `http://user:${SECRETS.urlPassword}@127.0.0.1:9/agent`,
          headers: { Authorization: `Bearer ${SECRETS.header}` },
          api_key: SECRETS.modelKey,
        },
      },
    });
    const failed = await db.caseResult.findFirstOrThrow({ where: { runId: a.run.id, name: "case 0" } });
    await db.caseResult.update({
      where: { id: failed.id },
      data: {
        failureReasons: ["Missing phrase: refund"],
        actualResponse: "No refunds.",
        transcript: [
          { role: "system", content: SECRETS.systemPrompt },
          { role: "user", content: "Can I get a refund?" },
          { role: "assistant", content: "No refunds." },
        ],
      },
    });
    await db.llmCall.create({
      data: {
        workspaceId: a.workspace.id,
        runId: a.run.id,
        caseResultId: failed.id,
        purpose: "agent",
        request: { headers: { Authorization: `Bearer ${SECRETS.header}` }, api_key: SECRETS.modelKey },
      },
    });

    const link = await newLink(a);
    const report = await loadSharedReport(link.token);
    expect(report?.kind).toBe("run");
    if (report?.kind !== "run") return;
    expect(report.cases.map((c) => c.status)).toEqual(["failed", "error", "passed"]);
    expect(report.cases[0]!.reason).toBe("Missing phrase: refund");
    expect(report.run.failed_cases).toBe(1);

    const casePage = await loadSharedCase(link.token, failed.id);
    expect(casePage?.result.transcript).toEqual([
      { role: "user", content: "Can I get a refund?" },
      { role: "assistant", content: "No refunds." },
    ]);

    // What the page renders, as HTML, and the data it is rendered from.
    const html =
      renderToStaticMarkup(SharedRunReportView({ token: link.token, report })) +
      renderToStaticMarkup(SharedCaseView({ token: link.token, page: casePage! }));
    expect(html).toContain("Missing phrase: refund");
    expect(html).toContain("Can I get a refund?");
    const everything = JSON.stringify([report, casePage]) + html;
    for (const secret of [...Object.values(SECRETS), a.user.email!]) expect(everything).not.toContain(secret);
    expect(everything).not.toContain("/w/");
    expect(everything).not.toContain("/api/");
  });
});
