import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ForbiddenError } from "@/lib/errors";
import {
  createModelConfig,
  deleteModelConfig,
  getModelConfig,
  listModelConfigOptions,
  listModelConfigs,
  modelConfigUsage,
  updateModelConfig,
} from "@/lib/model-configs/service";
import { modelConfigFormSchema } from "@/lib/model-configs/form-schema";
import { addMember, makeWorkspace } from "../helpers/factories";

const input = (name: string) => ({
  name,
  base_url: "http://localhost:11434/v1",
  model: "llama3.1",
  embedding_model: null,
  api_key: "sk-abcdefgh12345678",
  temperature: null,
  max_tokens: null,
});

describe("model configurations service", () => {
  it("lets admins write and everyone read, without the key", async () => {
    const { ctx, workspace } = await makeWorkspace("admin");
    const editor = await addMember(workspace.id, "editor");
    const viewer = await addMember(workspace.id, "viewer");
    const config = await createModelConfig(ctx, input("a"));
    for (const member of [editor, viewer]) {
      await expect(createModelConfig(member.ctx, input("b"))).rejects.toBeInstanceOf(ForbiddenError);
      await expect(updateModelConfig(member.ctx, config.id, { name: "c" })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(deleteModelConfig(member.ctx, config.id)).rejects.toBeInstanceOf(ForbiddenError);
      const read = await getModelConfig(member.ctx, config.id);
      expect(JSON.stringify(read)).not.toContain("sk-abcdefgh");
      expect((await listModelConfigs(member.ctx)).data).toHaveLength(1);
      expect(await listModelConfigOptions(member.ctx)).toEqual([{ id: config.id, name: "a", model: "llama3.1" }]);
    }
  });

  it("counts usage by agents and live suites (judge or simulator) only", async () => {
    const { ctx, workspace } = await makeWorkspace("admin");
    const a = await createModelConfig(ctx, input("a"));
    const b = await createModelConfig(ctx, input("b"));
    const agent = await db.agent.create({ data: { workspaceId: workspace.id, name: "x", kind: "chat", modelConfigId: a.id } });
    await db.suite.create({
      data: { workspaceId: workspace.id, agentId: agent.id, name: "s1", llmJudgeModelConfigId: a.id, simulatorModelConfigId: a.id },
    });
    await db.suite.create({ data: { workspaceId: workspace.id, agentId: agent.id, name: "s2", simulatorModelConfigId: b.id } });
    await db.suite.create({
      data: { workspaceId: workspace.id, agentId: agent.id, name: "s3", llmJudgeModelConfigId: b.id, deletedAt: new Date() },
    });
    const usage = await modelConfigUsage(ctx, [a.id, b.id]);
    expect(usage.get(a.id)).toEqual({ agents: 1, suites: 1 });
    expect(usage.get(b.id)).toEqual({ agents: 0, suites: 1 });
  });
});

describe("model configuration form schema", () => {
  const values = {
    name: "n",
    base_url: "http://localhost:11434/v1",
    model: "m",
    embedding_model: "",
    api_key: "",
    remove_api_key: false,
    temperature: "",
    max_tokens: "",
  };
  it("keeps the stored key for a blank field and removes it only when asked", () => {
    expect(modelConfigFormSchema.parse(values).api_key).toBeUndefined();
    expect(modelConfigFormSchema.parse({ ...values, api_key: "sk-new" }).api_key).toBe("sk-new");
    expect(modelConfigFormSchema.parse({ ...values, api_key: "sk-new", remove_api_key: true }).api_key).toBeNull();
  });
  it("reports number fields and schema rules at their fields", () => {
    const result = modelConfigFormSchema.safeParse({ ...values, name: "", temperature: "warm", max_tokens: "0" });
    expect(result.success).toBe(false);
    const issues = result.error!.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues).toEqual(
      expect.arrayContaining([
        ["name", "Name is required"],
        ["temperature", "Temperature must be a number"],
        ["max_tokens", "Max tokens must be at least 1"],
      ]),
    );
    expect(modelConfigFormSchema.parse({ ...values, temperature: "0.7", max_tokens: "512" })).toMatchObject({
      temperature: 0.7,
      max_tokens: 512,
    });
  });
  it("reads the rate limit fields: blank is none, words and fractions and zero are named at their fields", () => {
    expect(modelConfigFormSchema.parse({ ...values, rpm: " 600 ", tpm: "", max_concurrency: "4" })).toMatchObject({
      rpm: 600,
      tpm: null,
      max_concurrency: 4,
    });
    const result = modelConfigFormSchema.safeParse({ ...values, rpm: "lots", tpm: "1.5", max_concurrency: "0" });
    expect(result.error!.issues.map((i) => [i.path.join("."), i.message])).toEqual(
      expect.arrayContaining([
        ["rpm", "Requests per minute must be a whole number"],
        ["tpm", "Tokens per minute must be a whole number"],
        ["max_concurrency", "Max concurrency must be at least 1"],
      ]),
    );
  });
});
