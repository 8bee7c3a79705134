import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import * as collection from "@/app/api/v1/webhooks/route";
import * as single from "@/app/api/v1/webhooks/[id]/route";
import { GET as deliveriesRoute } from "@/app/api/v1/webhooks/[id]/deliveries/route";
import { POST as testRoute } from "@/app/api/v1/webhooks/[id]/test/route";
import { POST as redeliverRoute } from "@/app/api/v1/webhooks/[id]/deliveries/[deliveryId]/redeliver/route";
import { decryptSecret } from "@/lib/crypto";
import { makeApiKey, makeWorkspace } from "../helpers/factories";
import { call } from "../helpers/api";

const SECRET = "whsec-super-secret-value-42";
const body = (over: Record<string, unknown> = {}) => ({
  url: "https://hooks.example.test/assay",
  secret: SECRET,
  events: ["alert.raised", "run.failed"],
  ...over,
});

async function admin() {
  const { workspace } = await makeWorkspace("owner");
  return { workspaceId: workspace.id, token: await makeApiKey(workspace.id, "admin") };
}

describe("/api/v1/webhooks", () => {
  it("creates, lists, reads, updates and deletes a webhook; the secret is stored encrypted and never returned", async () => {
    const { token } = await admin();
    const created = await call(collection.POST, { method: "POST", token, body: body({ description: "Slack #qa" }) });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      url: "https://hooks.example.test/assay",
      events: ["alert.raised", "run.failed"],
      enabled: true,
      description: "Slack #qa",
      has_secret: true,
    });
    const id = created.json.id as string;
    const row = await db.webhook.findUniqueOrThrow({ where: { id } });
    expect(row.secretEncrypted).not.toContain(SECRET);
    expect(decryptSecret(row.secretEncrypted)).toBe(SECRET);

    const listed = await call(collection.GET, { token });
    const got = await call(single.GET, { token, params: { id } });
    const patched = await call(single.PATCH, {
      method: "PATCH",
      token,
      params: { id },
      body: { events: ["run.completed"], enabled: false, secret: "rotated-secret-0123456789" },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ events: ["run.completed"], enabled: false, url: "https://hooks.example.test/assay" });
    expect(decryptSecret((await db.webhook.findUniqueOrThrow({ where: { id } })).secretEncrypted)).toBe("rotated-secret-0123456789");
    const test = await call(testRoute, { method: "POST", token, params: { id } });
    expect(test.status).toBe(202);
    const deliveries = await call(deliveriesRoute, { token, params: { id } });
    for (const res of [created, listed, got, patched, test, deliveries]) {
      expect(res.text).not.toContain(SECRET);
      expect(res.text).not.toContain("rotated-secret");
      expect(res.text).not.toMatch(/"secret/);
    }
    expect(listed.json).toEqual({ data: [expect.objectContaining({ id })], next_cursor: null });

    const deleted = await call(single.DELETE, { method: "DELETE", token, params: { id } });
    expect(deleted.status).toBe(204);
    expect(await db.webhookDelivery.count({ where: { webhookId: id } })).toBe(0);
    expect((await call(single.GET, { token, params: { id } })).status).toBe(404);
  });

  it("refuses link-local and metadata URLs, and private networks unless the instance allows them", async () => {
    const { token } = await admin();
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://metadata.google.internal/computeMetadata/v1/",
      "http://[fe80::1]/hook",
      "http://10.0.0.5/hook",
      "http://192.168.1.20/hook",
    ]) {
      const res = await call(collection.POST, { method: "POST", token, body: body({ url }) });
      expect(res.status, url).toBe(400);
      expect(res.json.error.issues, url).toEqual([expect.objectContaining({ path: "url", message: expect.stringMatching(/refused/) })]);
    }
    const ok = await call(collection.POST, { method: "POST", token, body: body({ url: "http://127.0.0.1:8080/hook" }) });
    expect(ok.status).toBe(201);
    const moved = await call(single.PATCH, {
      method: "PATCH",
      token,
      params: { id: ok.json.id },
      body: { url: "http://169.254.169.254/" },
    });
    expect(moved.status).toBe(400);
    expect(await db.webhook.count()).toBeGreaterThan(0);
    expect((await db.webhook.findUniqueOrThrow({ where: { id: ok.json.id } })).url).toBe("http://127.0.0.1:8080/hook");
  });

  it("validates the body", async () => {
    const { token } = await admin();
    const cases: [Record<string, unknown>, string][] = [
      [body({ url: "ftp://example.test/x" }), "url"],
      [body({ secret: "short" }), "secret"],
      [body({ events: [] }), "events"],
      [body({ events: ["run.exploded"] }), "events.0"],
      [{ url: "https://example.test/x", events: ["run.failed"] }, "secret"],
      [body({ extra: 1 }), ""],
    ];
    for (const [input, path] of cases) {
      const res = await call(collection.POST, { method: "POST", token, body: input });
      expect(res.status, JSON.stringify(input)).toBe(400);
      if (path)
        expect(
          res.json.error.issues.map((i: { path: string }) => i.path),
          JSON.stringify(input),
        ).toContain(path);
    }
  });

  it("is for admins of the workspace only", async () => {
    const { workspaceId, token } = await admin();
    const created = await call(collection.POST, { method: "POST", token, body: body() });
    const editor = await makeApiKey(workspaceId, "editor");
    expect((await call(collection.GET, { token: editor })).status).toBe(403);
    expect((await call(collection.POST, { method: "POST", token: editor, body: body() })).status).toBe(403);
    expect((await call(testRoute, { method: "POST", token: editor, params: { id: created.json.id } })).status).toBe(403);
    const other = await admin();
    expect((await call(single.GET, { token: other.token, params: { id: created.json.id } })).status).toBe(404);
    expect((await call(deliveriesRoute, { token: other.token, params: { id: created.json.id } })).status).toBe(404);
  });
});

describe("deliveries, test event and redeliver", () => {
  it("lists deliveries newest first with cursor pagination and queues a copy on redeliver", async () => {
    const { token } = await admin();
    const created = await call(collection.POST, { method: "POST", token, body: body() });
    const id = created.json.id as string;
    const first = await call(testRoute, { method: "POST", token, params: { id } });
    expect(first.json).toMatchObject({ event: "webhook.test", status: "pending", attempts: 0, webhook_id: id });
    expect(first.json.payload).toMatchObject({ event: "webhook.test", text: expect.any(String), webhook: { id } });
    const second = await call(testRoute, { method: "POST", token, params: { id } });
    const again = await call(redeliverRoute, { method: "POST", token, params: { id, deliveryId: first.json.id } });
    expect(again.status).toBe(202);
    expect(again.json.id).not.toBe(first.json.id);
    expect(again.json.payload).toEqual(first.json.payload);

    const page1 = await call(deliveriesRoute, { url: "/?limit=2", token, params: { id } });
    expect(page1.json.data).toHaveLength(2);
    const page2 = await call(deliveriesRoute, { url: `/?limit=2&cursor=${page1.json.next_cursor}`, token, params: { id } });
    expect(page2.json.next_cursor).toBeNull();
    const ids = [...page1.json.data, ...page2.json.data].map((d: { id: string }) => d.id);
    expect(ids.toSorted()).toEqual([first.json.id, second.json.id, again.json.id].toSorted());
    // Newest first: the first test event is the oldest.
    expect(ids.at(-1)).toBe(first.json.id);

    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await call(redeliverRoute, { method: "POST", token, params: { id, deliveryId: unknown } })).status).toBe(404);
  });
});
