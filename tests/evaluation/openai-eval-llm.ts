// A minimal EvalLlm over the openai SDK, for tests against the fake OpenAI server. The executor
// has its own adapter (retries, call records); this one makes exactly one request per call.
import OpenAI from "openai";
import type { EvalLlm } from "@/lib/evaluation/types";

export function openAiEvalLlm(baseURL: string, model = "gpt-4o-mini", embeddingModel = "text-embedding-3-small"): EvalLlm {
  const client = new OpenAI({ baseURL, apiKey: "sk-test", maxRetries: 0 });
  return {
    model,
    async json(req) {
      const res = await client.chat.completions.create(
        {
          model,
          temperature: 0,
          messages: req.messages,
          response_format: { type: "json_schema", json_schema: { name: req.schemaName, schema: req.schema, strict: true } },
        },
        req.timeoutMs ? { timeout: req.timeoutMs } : undefined,
      );
      return { raw: res.choices[0]?.message.content ?? "" };
    },
    async embed(texts) {
      const res = await client.embeddings.create({ model: embeddingModel, input: texts, encoding_format: "float" });
      return res.data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
    },
  };
}
