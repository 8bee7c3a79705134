import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ForbiddenError, NotFoundError, ValidationError } from "@/lib/errors";
import { agentInput } from "@/lib/agents/schemas";
import { createAgent, deleteAgent, getAgent, resolveAgentForRun, updateAgent } from "@/lib/agents/service";
import { addMember, makeWorkspace } from "../helpers/factories";

const httpData = (name: string) =>
  agentInput.parse({
    name,
    kind: "http",
    http: { url: "http://127.0.0.1:9/agent", headers: { Authorization: "Bearer tok-0000-abcd", "X-Env": "staging" } },
  });

describe("agents service", () => {
  it("resolveAgentForRun returns decrypted headers; the public JSON never does", async () => {
    const { ctx, workspace } = await makeWorkspace("editor");
    const agent = await createAgent(ctx, httpData("runner"));
    expect(JSON.stringify(agent)).not.toContain("tok-0000");
    const resolved = await resolveAgentForRun(workspace.id, agent.id);
    expect(resolved).toMatchObject({
      id: agent.id,
      name: "runner",
      kind: "http",
      http: { url: "http://127.0.0.1:9/agent", headers: { Authorization: "Bearer tok-0000-abcd", "X-Env": "staging" }, timeout_ms: 30_000 },
      tools: [],
      variables_schema: [],
    });
    const stranger = await makeWorkspace("owner");
    await expect(resolveAgentForRun(stranger.workspace.id, agent.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("asks for headers again when they cannot be decrypted, and masks nothing it cannot read", async () => {
    const { ctx, workspace } = await makeWorkspace("editor");
    const agent = await createAgent(ctx, httpData("rotated"));
    await db.agent.update({ where: { id: agent.id }, data: { httpHeadersEncrypted: "v1.AAAA.BBBB.CCCC" } });
    await expect(resolveAgentForRun(workspace.id, agent.id)).rejects.toBeInstanceOf(ValidationError);
    expect((await getAgent(ctx, agent.id)).http?.headers).toEqual({ Authorization: "", "X-Env": "" });
  });

  it("checks roles: viewers read, editors write", async () => {
    const { ctx, workspace } = await makeWorkspace("editor");
    const viewer = await addMember(workspace.id, "viewer");
    const agent = await createAgent(ctx, httpData("roles"));
    expect((await getAgent(viewer.ctx, agent.id)).name).toBe("roles");
    await expect(createAgent(viewer.ctx, httpData("nope"))).rejects.toBeInstanceOf(ForbiddenError);
    await expect(updateAgent(viewer.ctx, agent.id, { name: "x" })).rejects.toBeInstanceOf(ForbiddenError);
    await expect(deleteAgent(viewer.ctx, agent.id)).rejects.toBeInstanceOf(ForbiddenError);
    await expect(getAgent(ctx, "not-a-uuid")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("keeps tools and mock responses of any JSON type", async () => {
    const { ctx, workspace } = await makeWorkspace("editor");
    const config = await db.modelConfig.create({
      data: { workspaceId: workspace.id, name: "c", baseUrl: "http://localhost:11434/v1", model: "llama" },
    });
    const tools = [
      { name: "text", description: "", parameters: { type: "object", properties: {} }, mock_response: "It is sunny" },
      {
        name: "list",
        description: "d",
        parameters: { type: "object", properties: { q: { type: "string" } } },
        mock_response: [1, { a: null }],
      },
      { name: "none", description: "", parameters: { type: "object", properties: {} }, mock_response: null },
    ];
    const agent = await createAgent(ctx, agentInput.parse({ name: "tools", kind: "chat", model_config_id: config.id, tools }));
    expect(agent.tools).toEqual(tools);
    expect((await resolveAgentForRun(workspace.id, agent.id)).tools).toEqual(tools);
  });
});
