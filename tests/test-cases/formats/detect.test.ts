import { describe, expect, it } from "vitest";
import { guessImportFormat } from "@/lib/test-cases/formats/detect";

/** The import dialog pre-selects the format a file looks like; a file that points nowhere keeps the user's choice. */
describe("guessImportFormat", () => {
  it("recognises each tool's file by its name or its first item", () => {
    expect(guessImportFormat("promptfooconfig.yaml", "description: x\n")).toBe("promptfoo");
    expect(guessImportFormat("config.yaml", "prompts: ['{{q}}']\ntests: []\n")).toBe("promptfoo");
    expect(guessImportFormat("items.json", JSON.stringify({ data: [{ id: "1", input: "hi", expectedOutput: "yo" }] }))).toBe("langfuse");
    expect(guessImportFormat("goldens.json", JSON.stringify([{ input: "hi", expected_output: "yo" }]))).toBe("deepeval");
    expect(guessImportFormat("convo.json", JSON.stringify({ conversational_goldens: [{ scenario: "s" }] }))).toBe("deepeval");
    expect(guessImportFormat("train.jsonl", '{"messages":[{"role":"user","content":"hi"}]}\n{"messages":[]}\n')).toBe("openai-jsonl");
    expect(guessImportFormat("samples.jsonl", '{"input":"2+2?","target":"4","id":1}\n')).toBe("inspect");
    expect(guessImportFormat("cases.yaml", "- name: a\n  initial_message: hi\n")).toBe("assay");
    expect(guessImportFormat("cases.yaml", "test_cases:\n  - name: a\n")).toBe("assay");
  });

  it("answers null for what it cannot read or place", () => {
    expect(guessImportFormat("notes.txt", "just words")).toBeNull();
    expect(guessImportFormat("broken.json", "[{")).toBeNull();
    expect(guessImportFormat("empty.json", "[]")).toBeNull();
  });
});
