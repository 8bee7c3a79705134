import { expect, test } from "@playwright/test";
import { addFakeRules, createApiKey, createFakeSuite, createWorkspace, expectAccessible, fakeRequests, unique } from "./fixtures";
import { otlpRequest, supportConversation } from "../tests/traffic/spans";

/**
 * From real traffic to a regression case: an ingest-only key made in the settings sends a
 * three-turn support conversation as OTLP/JSON (GenAI spans, one trace per turn, a tool call in
 * the first); the Traffic page lists it (filters by what the user said), the conversation reads
 * like a case transcript; "Make a test case" drafts a simulated-user case (the judge model's
 * persona, the first user message, max turns 5, the tool called) into the case form; saved, the
 * case links back to the conversation, and "Run this case" runs it green against the same agent.
 * The fake model's replies are rules keyed to this spec's marker; the same pages at 390 px.
 */
test("a conversation from OpenTelemetry traffic becomes a simulated-user case that runs green", async ({ page, request }) => {
  const marker = `TRAFFIC${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const service = unique("support-bot").toLowerCase();
  const workspaceId = await createWorkspace(page, unique("Traffic"));
  const admin = await createApiKey(page, workspaceId, "admin");

  await test.step("an ingest-only key, made in the settings, sends the conversation", async () => {
    await page.goto(`/w/${workspaceId}/settings/api-keys`);
    await page.getByLabel("Name", { exact: true }).fill(unique("collector"));
    await expect(async () => {
      await page.getByLabel("Can", { exact: true }).selectOption("ingest");
      await expect(page.getByLabel("Role", { exact: true })).toBeHidden();
    }).toPass();
    await page.getByRole("button", { name: "Create API key" }).click();
    const ingestKey = await page.getByLabel("New API key").inputValue();
    await expect(page.getByRole("row").filter({ hasText: "Ingest only" })).toHaveCount(1);

    const turns = supportConversation(`conv-${marker}`, Date.now() - 10 * 60_000, marker);
    for (const spans of turns) {
      const res = await request.post("/api/v1/otlp/v1/traces", {
        headers: { authorization: `Bearer ${ingestKey}`, "content-type": "application/json" },
        data: otlpRequest(service, spans),
      });
      expect(res.status(), await res.text()).toBe(200);
    }
    // It can do nothing else.
    const list = await request.get("/api/v1/conversations", { headers: { authorization: `Bearer ${ingestKey}` } });
    expect(list.status()).toBe(403);
  });

  const suite = await createFakeSuite(request, admin, {
    agent: {
      name: "Support agent",
      system_prompt: `You are the support agent (${marker}).`,
      otel_service_name: service,
      tools: [
        {
          name: "lookup_order",
          description: "Find an order",
          parameters: { type: "object", properties: { order_id: { type: "string" } } },
          mock_response: '{"status":"delayed"}',
        },
      ],
    },
    suite: { name: "Support regressions" },
  });
  await addFakeRules(request, [
    {
      match: { schemaName: "case_draft_persona", anyContains: marker },
      reply: {
        json: {
          persona: {
            type: "Customer with a late order",
            description: `Order 1042 missed its Monday delivery (${marker})`,
            instructions: "Ask where the order is, then ask for the shipping fee back.",
          },
          user_context: [{ key: "order_id", value: "1042" }],
          expected_outcomes: [{ label: "Refunds shipping", description: `The agent refunds the shipping fee (${marker})` }],
        },
      },
    },
    {
      match: { anyContains: marker, hasTools: true, afterToolResult: false },
      reply: { toolCalls: [{ name: "lookup_order", arguments: { order_id: "1042" } }] },
      times: 1,
    },
    { match: { anyContains: marker, hasTools: true }, reply: { content: "It ships tomorrow, and I refunded the shipping fee." } },
    {
      match: { schemaName: "simulator_turn", anyContains: marker },
      reply: { json: { message: "Thanks!", should_end: true, end_reason: "satisfied" } },
    },
    {
      match: { schemaName: "outcome_verdicts", anyContains: marker },
      reply: { json: { o1: { reasoning: "Refunded in turn 1", evidence_turns: [1], verdict: "pass" } } },
    },
  ]);

  await test.step("the Traffic page lists the conversation and filters by what the user said", async () => {
    await page.goto(`/w/${workspaceId}`);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Traffic" }).click();
    await expect(page.getByRole("heading", { name: "Traffic", level: 1 })).toBeVisible();
    await page.getByLabel("User said").fill("refund on shipping");
    await page.getByLabel("Started").selectOption("24h");
    await page.getByLabel("Used tool").fill("lookup_order");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/q=refund/);
    await expect(page).toHaveURL(/range=24h/);
    const table = page.getByRole("table", { name: "Conversations, newest first" });
    const row = table.getByRole("row").filter({ hasText: "Where is my order 1042?" });
    await expect(row).toHaveCount(1);
    // No span of it ended in error: the error filter leaves nothing.
    await page.getByLabel("Has an error").check();
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/has_error=true/);
    await expect(table.getByText("No conversation matches these filters.")).toBeVisible();
    await page.getByLabel("Has an error").uncheck();
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(row).toContainText(service);
    await expect(row).toContainText("Support agent");
    await expect(row).toContainText("lookup_order");
    // Four model calls: 40 + 50 + 70 + 90 input tokens, 8 + 12 × 3 output; three agent turns of 900 ms.
    await expect(row).toContainText("250 / 44");
    await expect(row).toContainText("2.7 s");
    await expectAccessible(page, "traffic page");
    await row.getByRole("link").click();
  });

  await test.step("the conversation reads like a case transcript", async () => {
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Where is my order 1042?");
    await expect(page.getByText("It ships tomorrow; sorry for the delay.")).toBeVisible();
    await expect(page.getByText("Can I get a refund on shipping?")).toBeVisible();
    const tools = page.getByRole("list", { name: "Tool calls in order" }).getByRole("listitem");
    await expect(tools).toHaveCount(1);
    await expect(tools.first()).toContainText("lookup_order");
    await expect(tools.first()).toContainText("40 ms");
    await expect(tools.first()).toContainText('{"status":"delayed","ships":"tomorrow"}');
    // Real users' messages are the user's, not an authored question.
    await expect(page.getByText("Authored question")).toHaveCount(0);
    await expectAccessible(page, "conversation page");
  });

  await test.step("Make a test case drafts a simulated-user case into the form, and it is saved", async () => {
    await page.getByRole("button", { name: "Make a test case" }).click();
    const dialog = page.getByRole("dialog", { name: "Make a test case" });
    await dialog.getByLabel("Suite").selectOption({ label: `${suite.name} · ${suite.agent.name}` });
    await expect(dialog.getByLabel(/As the conversation went \(simulated user\)/)).toBeChecked();
    await dialog.getByRole("button", { name: "Draft the case" }).click();
    await page.waitForURL(/\/cases\/new\?conversation=/);
    await expect(page.getByRole("status").filter({ hasText: "Drafted from" })).toContainText("simulated-user case");
    await expect(page.getByLabel("Initial message")).toHaveValue("Where is my order 1042?");
    await expect(page.getByLabel("Persona type")).toHaveValue("Customer with a late order");
    await expect(page.getByLabel("Max turns")).toHaveValue("5");
    const drafts = await fakeRequests<{ body: { messages: { content: string }[] } }>(request, marker);
    const judged = drafts.find((r) => JSON.stringify(r.body).includes("case_draft_persona"));
    expect(JSON.stringify(judged?.body.messages)).toContain("USER: It was due Monday.");
    await page.getByRole("button", { name: "Create test case" }).click();
    await page.waitForURL(/notice=created/);
  });

  await test.step("the case links back to its conversation and runs green", async () => {
    await page.getByRole("link", { name: "Where is my order 1042?" }).first().click();
    await expect(page.getByTestId("case-source")).toContainText(`a conversation of ${service}`);
    await expect(page.getByTestId("case-source").getByRole("link")).toHaveAttribute("href", /\/traffic\//);
    await page.getByRole("button", { name: "Run this case" }).click();
    await page.getByRole("dialog", { name: "Run this case" }).getByRole("button", { name: "Start run" }).click();
    await page.waitForURL(/\/runs\/[0-9a-f-]{36}\/cases\/[0-9a-f-]{36}$/);
    const passed = "Every check, tool call expectation, outcome and metric passed.";
    const verdict = page.getByTestId("case-reason").or(page.getByText(passed));
    await expect(verdict).toBeVisible({ timeout: 30_000 });
    await expect(verdict).toHaveText(passed);

    // The run's own transcript makes a case the same way, for the same suite.
    await page.getByRole("button", { name: "Make a test case" }).click();
    const dialog = page.getByRole("dialog", { name: "Make a test case" });
    await expect(dialog.getByLabel("Suite")).toHaveValue(suite.id);
    await dialog.getByRole("button", { name: "Draft the case" }).click();
    await page.waitForURL(/\/cases\/new\?case_result=/);
    await expect(page.getByRole("status").filter({ hasText: "Drafted from" })).toContainText("the case result's transcript");
    await expect(page.getByLabel("Initial message")).toHaveValue("Where is my order 1042?");
  });

  await test.step("390 px: the Traffic page and the conversation fit the screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const url of [`/w/${workspaceId}/traffic`, `/w/${workspaceId}/traffic?q=refund`]) {
      await page.goto(url);
      await expect(page.getByRole("heading", { name: "Traffic", level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    }
    await page.getByRole("table", { name: "Conversations, newest first" }).getByRole("link").first().click();
    await expect(page.getByRole("button", { name: "Make a test case" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
