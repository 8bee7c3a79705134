/**
 * The execution model's files in full runs (executor + case runner + the fake OpenAI server): the first user
 * message carries the files in the layout of lib/files/layout.ts, within the per-case budget;
 * HTTP agents get `files`; images go to vision models as image_url parts and make the case an
 * error for other models; a file that fails makes the case `files_failed` without calling the
 * agent; stages and processed_files reach the results API; a shared file is extracted once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createAgent } from "@/lib/agents/service";
import { agentInput } from "@/lib/agents/schemas";
import { getCaseResult, listCaseResults, startRun } from "@/lib/runs/service";
import { listCaseTable } from "@/lib/runs/case-table";
import { storeFileBytes } from "@/lib/files/service";
import { fileRef } from "@/lib/files/schemas";
import { extractionCount } from "@/lib/files/processing";
import { truncationMarker } from "@/lib/files/layout";
import type { WorkspaceContext } from "@/lib/auth/roles";
import { withRunStack } from "../helpers/run-stack";
import * as resultsRoute from "@/app/api/v1/runs/[id]/results/route";
import * as caseResultRoute from "@/app/api/v1/case-results/[id]/route";
import { makeApiKey, makeWorkspace, makeSuiteWithCases, reportText, waitFor, runToEnd } from "../helpers/factories";
import { call } from "../helpers/api";
import { corruptPdf, makePdf, makePng } from "./fixtures";

const { fake } = withRunStack();

async function upload(ctx: WorkspaceContext, name: string, bytes: Buffer) {
  const { file } = await storeFileBytes(ctx.workspaceId, { name, bytes, origin: "upload" });
  return fileRef(file.id);
}

type ChatMessage = { role: string; content: string | { type: string; text?: string; image_url?: { url: string; detail: string } }[] };
const agentRequests = () => fake.requests.filter((r) => r.endpoint === "chat" && !r.body.response_format);
const firstUser = (messages: ChatMessage[]) => messages.find((m) => m.role === "user")!;

describe("files in a run", () => {
  it("puts the extracted markdown into the first user message in the documented layout; stage and processed_files reach the results API and reports", async () => {
    const { ctx } = await makeWorkspace("editor");
    const notes = await upload(ctx, "notes.txt", Buffer.from("The refund window is 30 days.\nShipping is free over $50."));
    const pdf = await upload(ctx, "invoice.pdf", await makePdf(["Invoice INV-7 total 120 EUR", "Page two terms", "Page three"]));
    const { suite } = await makeSuiteWithCases(ctx, 1, {
      baseUrl: fake.url,
      caseData: () => ({
        initialMessage: "What does the invoice say?",
        files: [
          { path: notes, type: "text", description: "Store policy" },
          { path: pdf, type: "pdf", pages: [1, 3] },
        ],
      }),
    });

    const run = await runToEnd(ctx, suite.id);
    expect(run.status).toBe("completed");
    const [request] = agentRequests();
    const content = firstUser(request!.body.messages as ChatMessage[]).content as string;
    expect(typeof content).toBe("string");
    expect(
      content.startsWith("What does the invoice say?\n\n---\nAttached file 1 of 2: notes.txt (text)\nDescription: Store policy\n\n"),
    ).toBe(true);
    expect(content).toContain(
      "The refund window is 30 days.\nShipping is free over $50.\n\n---\nAttached file 2 of 2: invoice.pdf (pdf, pages 1, 3)\n\n",
    );
    expect(content).toContain("Invoice INV-7 total 120 EUR");
    expect(content).toContain("Page three");
    expect(content).not.toContain("Page two terms");
    expect(content.endsWith("\n---")).toBe(true);

    const token = await makeApiKey(ctx.workspaceId, "viewer");
    const api = await call(resultsRoute.GET, { url: `/api/v1/runs/${run.id}/results`, token, params: { id: run.id } });
    expect(api.status).toBe(200);
    expect(api.json.data[0]).toMatchObject({ stage: "complete", processed_files: [{ error: null }, { error: null }] });
    const one = await call(caseResultRoute.GET, {
      url: `/api/v1/case-results/${api.json.data[0].id}`,
      token,
      params: { id: api.json.data[0].id },
    });
    expect(one.json).toMatchObject({
      stage: "complete",
      processed_files: [{ metadata: { name: "notes.txt" } }, { metadata: { name: "invoice.pdf" } }],
    });

    const page = await listCaseResults(ctx, run.id, { limit: 10, include: ["transcript"] });
    const result = page.data[0]!;
    expect(result).toMatchObject({ status: "passed", stage: "complete" });
    expect((await listCaseTable(ctx, run.id, { limit: 10 })).data[0]!.stage).toBe("complete");
    expect(result.processed_files).toHaveLength(2);
    expect(result.processed_files[0]).toMatchObject({
      original: { path: notes, type: "text", description: "Store policy" },
      markdown_content: "The refund window is 30 days.\nShipping is free over $50.",
      cached_path: null,
      error: null,
      metadata: { name: "notes.txt", format: "text", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(result.processed_files[0]!.processing_time_ms).toBeGreaterThanOrEqual(0);
    expect(result.processed_files[1]).toMatchObject({ original: { pages: [1, 3] }, error: null, metadata: { name: "invoice.pdf" } });
    // The stored transcript keeps the text and names the attachments; no data URL is stored.
    const user = (result.transcript as { role: string; content: string; attachments?: unknown }[]).find((m) => m.role === "user")!;
    expect(user.content).toBe(content);
    expect(user.attachments).toEqual([
      { name: "notes.txt", type: "text" },
      { name: "invoice.pdf", type: "pdf" },
    ]);

    const json = JSON.parse(await reportText(ctx, run.id, "json")) as {
      results: { processed_files: unknown[]; stage: string }[];
    };
    expect(json.results[0]!.processed_files).toHaveLength(2);
    expect(json.results[0]!.stage).toBe("complete");
    expect(await reportText(ctx, run.id, "markdown")).toContain("invoice.pdf");
    expect(await reportText(ctx, run.id, "csv")).toContain("notes.txt; invoice.pdf");
  });

  it("persona cases: the simulated user's first message carries the files; the simulator sees only their names", async () => {
    const { ctx } = await makeWorkspace("editor");
    const path = await upload(ctx, "order.txt", Buffer.from("Order 1234 arrived broken."));
    const persona = { type: "customer", description: "Got a broken item", instructions: "Ask for a replacement" };
    const { suite } = await makeSuiteWithCases(ctx, 1, {
      baseUrl: fake.url,
      caseData: () => ({ initialMessage: null, persona, maxTurns: 2, files: [{ path, type: "text" }] }),
    });
    fake.addRule({
      match: { schemaName: "simulator_turn" },
      reply: { json: { message: "My order came broken", should_end: false, end_reason: null } },
      times: 1,
    });
    fake.addRule({ match: { schemaName: "simulator_turn" }, reply: { json: { message: "thanks", should_end: true, end_reason: "done" } } });
    fake.addRule({ match: { lastUserContains: "Order 1234" }, reply: { content: "Sorry, a replacement is on its way." } });
    const run = await runToEnd(ctx, suite.id);
    expect(run.passed_cases).toBe(1);
    const [first, second] = agentRequests().filter((r) => !r.body.response_format);
    const opening = firstUser(first!.body.messages as ChatMessage[]).content as string;
    expect(opening).toBe("My order came broken\n\n---\nAttached file 1 of 1: order.txt (text)\n\nOrder 1234 arrived broken.\n---");
    expect(second).toBeUndefined();
    const simulatorBodies = JSON.stringify(
      fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === "simulator_turn").map((r) => r.body),
    );
    expect(simulatorBodies).toContain("[Attached files: order.txt]");
    expect(simulatorBodies).not.toContain("Order 1234 arrived broken.");
  });

  it("cuts the files to the per-case budget with a visible marker", async () => {
    const { ctx } = await makeWorkspace("editor");
    const before = env.ASSAY_FILES_MAX_CHARS;
    (env as { ASSAY_FILES_MAX_CHARS: number }).ASSAY_FILES_MAX_CHARS = 1000;
    try {
      const big = await upload(ctx, "big.txt", Buffer.from("x".repeat(3000)));
      const small = await upload(ctx, "small.txt", Buffer.from("tiny file"));
      const { suite } = await makeSuiteWithCases(ctx, 1, {
        baseUrl: fake.url,
        caseData: () => ({
          files: [
            { path: big, type: "text" },
            { path: small, type: "text" },
          ],
        }),
      });
      await runToEnd(ctx, suite.id);
    } finally {
      (env as { ASSAY_FILES_MAX_CHARS: number }).ASSAY_FILES_MAX_CHARS = before;
    }
    const content = firstUser(agentRequests()[0]!.body.messages as ChatMessage[]).content as string;
    // The small file is kept whole; the big one gets the rest of the 1,000 characters.
    expect(content).toContain(`${"x".repeat(991)}\n${truncationMarker(2009, 1000)}`);
    expect(content).toContain("[… 2,009 more characters cut: Assay's per-case file budget is 1,000 characters]");
    expect(content).toContain("tiny file");
  });

  it("sends an image to a vision model as an image_url part, and errors the case for a model not marked vision-capable", async () => {
    const { ctx } = await makeWorkspace("editor");
    const png = await upload(ctx, "chart.png", await makePng(40, 20));
    const vision = await makeSuiteWithCases(ctx, 1, {
      baseUrl: fake.url,
      caseData: () => ({ initialMessage: "Describe the chart", files: [{ path: png, type: "image" }] }),
    });
    await db.modelConfig.update({ where: { id: vision.modelConfig.id }, data: { supportsVision: true } });
    const run = await runToEnd(ctx, vision.suite.id);
    expect(run.passed_cases).toBe(1);
    const parts = firstUser(agentRequests()[0]!.body.messages as ChatMessage[]).content as Exclude<ChatMessage["content"], string>;
    expect(parts[0]).toMatchObject({ type: "text", text: expect.stringContaining("Attached file 1 of 1: chart.png (image)") });
    expect(parts[1]).toMatchObject({
      type: "image_url",
      image_url: { detail: "auto", url: expect.stringMatching(/^data:image\/png;base64,/) },
    });
    const stored = (await listCaseResults(ctx, run.id, { limit: 1, include: ["transcript"] })).data[0]!;
    expect(JSON.stringify(stored.transcript)).not.toContain("data:image");
    const detail = await getCaseResult(ctx, stored.id);
    expect(JSON.stringify(detail.llm_calls[0]!.request)).not.toMatch(/base64,[A-Za-z0-9+/]{100}/);

    fake.reset();
    const plain = await makeSuiteWithCases(ctx, 1, {
      baseUrl: fake.url,
      caseData: () => ({ initialMessage: "Describe the chart", files: [{ path: png, type: "image" }] }),
    });
    const failedRun = await runToEnd(ctx, plain.suite.id);
    expect(failedRun.error_cases).toBe(1);
    const failed = (await listCaseResults(ctx, failedRun.id, { limit: 1 })).data[0]!;
    expect(failed).toMatchObject({ status: "error", stage: "files_failed", error_type: "files" });
    expect(failed.error_message).toBe(
      `File 1 of 1 (chart.png) is an image but the model configuration "${plain.modelConfig.name}" is not marked vision-capable`,
    );
    expect(agentRequests()).toHaveLength(0);
  });

  it("a corrupt file makes the case an error at files_failed, records the processed file and never calls the agent", async () => {
    const { ctx } = await makeWorkspace("editor");
    const bad = await upload(ctx, "broken.pdf", corruptPdf());
    const { suite } = await makeSuiteWithCases(ctx, 1, { baseUrl: fake.url, caseData: () => ({ files: [{ path: bad, type: "pdf" }] }) });
    const run = await runToEnd(ctx, suite.id);
    expect(run).toMatchObject({ status: "completed", error_cases: 1 });
    const result = (await listCaseResults(ctx, run.id, { limit: 1 })).data[0]!;
    expect(result).toMatchObject({ status: "error", stage: "files_failed", error_type: "files" });
    expect(result.error_message).toMatch(/^File 1 of 1: .*broken\.pdf/);
    expect(result.processed_files[0]).toMatchObject({ markdown_content: "", error: expect.stringContaining("broken.pdf") });
    expect(result.errors).toEqual([result.error_message]);
    expect(fake.requests.filter((r) => r.endpoint === "chat")).toHaveLength(0);
    const junit = await reportText(ctx, run.id, "junit");
    expect(junit).toContain("broken.pdf");
  });

  it("a stored file deleted before the run is a clear files_failed error naming it", async () => {
    const { ctx } = await makeWorkspace("editor");
    const path = await upload(ctx, "gone.txt", Buffer.from("soon gone"));
    const { suite } = await makeSuiteWithCases(ctx, 1, { baseUrl: fake.url, caseData: () => ({ files: [{ path, type: "text" }] }) });
    await db.storedFile.deleteMany({ where: { workspaceId: ctx.workspaceId } });
    const run = await runToEnd(ctx, suite.id);
    const result = (await listCaseResults(ctx, run.id, { limit: 1 })).data[0]!;
    expect(result).toMatchObject({ status: "error", stage: "files_failed" });
    expect(result.error_message).toBe(`File 1 of 1: ${path} no longer exists in this workspace`);
  });

  it("20 cases sharing one PDF extract it exactly once", async () => {
    const { ctx } = await makeWorkspace("editor");
    const pdf = await upload(ctx, "shared.pdf", await makePdf(["Shared handbook page", "Second page"]));
    const { suite } = await makeSuiteWithCases(ctx, 20, { baseUrl: fake.url, caseData: () => ({ files: [{ path: pdf, type: "pdf" }] }) });
    const before = extractionCount();
    const run = await runToEnd(ctx, suite.id);
    expect(run.passed_cases).toBe(20);
    expect(extractionCount() - before).toBe(1);
    const results = (await listCaseResults(ctx, run.id, { limit: 50 })).data;
    expect(results.filter((r) => r.processed_files[0]!.metadata.cache === "miss")).toHaveLength(1);
    expect(
      agentRequests().every((r) => (firstUser(r.body.messages as ChatMessage[]).content as string).includes("Shared handbook page")),
    ).toBe(true);
  });

  it("shows the live stage while the agent is answering", async () => {
    const { ctx } = await makeWorkspace("editor");
    const path = await upload(ctx, "live.txt", Buffer.from("live stage file"));
    const { suite } = await makeSuiteWithCases(ctx, 1, { baseUrl: fake.url, caseData: () => ({ files: [{ path, type: "text" }] }) });
    fake.addRule({ match: { anyContains: "live stage file" }, reply: { content: "slow answer", delayMs: 1500 }, times: 1 });
    const started = await startRun(ctx, suite.id, {}, "manual");
    const live = await waitFor(
      () => listCaseResults(ctx, started.id, { limit: 1 }),
      (p) => p.data[0]?.stage === "executing_agent",
    );
    expect(live.data[0]!.status).toBe("running");
    const done = await waitFor(
      () => listCaseResults(ctx, started.id, { limit: 1 }),
      (p) => p.data[0]?.status === "passed",
    );
    expect(done.data[0]!.stage).toBe("complete");
  });
});

describe("files for HTTP agents", () => {
  let server: http.Server;
  let base: string;
  const bodies: { messages: { role: string; content: string }[]; files?: unknown }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = "";
      req.on("data", (c: Buffer) => (text += c.toString("utf8")));
      req.on("end", () => {
        bodies.push(JSON.parse(text) as (typeof bodies)[number]);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ reply: "got it" }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it("receives files: [{name, type, markdown}] besides the messages; images are described, not refused", async () => {
    const { ctx } = await makeWorkspace("editor");
    const csv = await upload(ctx, "orders.csv", Buffer.from("id,total\n1,20\n2,35\n"));
    const png = await upload(ctx, "photo.png", await makePng(30, 30));
    const agent = await createAgent(ctx, agentInput.parse({ name: "http files agent", kind: "http", http: { url: `${base}/agent` } }));
    const suite = await db.suite.create({ data: { workspaceId: ctx.workspaceId, agentId: agent.id, name: "http files suite" } });
    await db.testCase.create({
      data: {
        workspaceId: ctx.workspaceId,
        suiteId: suite.id,
        name: "http case",
        initialMessage: "Sum the orders",
        sortOrder: 0,
        files: [
          { path: csv, type: "csv" },
          { path: png, type: "image" },
        ],
      },
    });
    const run = await runToEnd(ctx, suite.id);
    expect(run.status).toBe("completed");
    const body = bodies.at(-1)!;
    expect(body.files).toEqual([
      { name: "orders.csv", type: "csv", markdown: expect.stringContaining("| id | total |") },
      { name: "photo.png", type: "image", markdown: expect.stringContaining("photo.png") },
    ]);
    expect(body.messages[0]!.content).toContain("Sum the orders\n\n---\nAttached file 1 of 2: orders.csv (csv)");
    const result = (await listCaseResults(ctx, run.id, { limit: 1 })).data[0]!;
    expect(result.stage).toBe("complete");
  });
});
