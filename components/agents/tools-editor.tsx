"use client";
import { useFieldArray, useFormContext } from "react-hook-form";
import { emptyTool, type AgentFormValues } from "@/lib/agents/form-schema";
import { FormInput, FormTextarea } from "@/components/forms/form-input";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";

/** Tool definitions of a chat agent: name, description, JSON-schema parameters, mock response. */
export function ToolsEditor({ readOnly }: { readOnly: boolean }) {
  const form = useFormContext<AgentFormValues>();
  const { fields, append, remove } = useFieldArray({ control: form.control, name: "tools" });
  return (
    <Card className="space-y-4 p-5">
      <div className="flex items-center justify-between">
        <div>
          <h2 className="text-base font-semibold">Tools</h2>
          <p className="text-sm text-slate-600">The agent may call these; each call is answered with the mock response.</p>
        </div>
        {!readOnly && (
          <Button variant="secondary" size="sm" onClick={() => append({ ...emptyTool })}>
            Add tool
          </Button>
        )}
      </div>
      {fields.length === 0 && <p className="text-sm text-slate-500">No tools.</p>}
      {fields.map((f, i) => {
        const id = (name: string) => `tools-${i}-${name}`;
        return (
          <fieldset key={f.id} className="space-y-3 rounded-md border border-slate-200 p-4" aria-label={`Tool ${i + 1}`}>
            <div className="grid gap-3 md:grid-cols-2">
              <FormInput
                form={form}
                name={`tools.${i}.name`}
                id={id("name")}
                label="Tool name"
                className="font-mono"
                placeholder="get_weather"
              />
              <FormInput form={form} name={`tools.${i}.description`} id={id("description")} label="Tool description" />
            </div>
            <FormTextarea
              form={form}
              name={`tools.${i}.parameters`}
              id={id("parameters")}
              label="Parameters (JSON schema)"
              hint='A JSON schema object, e.g. {"type": "object", "properties": {"city": {"type": "string"}}}'
              rows={6}
              spellCheck={false}
              className="font-mono text-xs"
            />
            <FormTextarea
              form={form}
              name={`tools.${i}.mock_response`}
              id={id("mock_response")}
              label="Mock response"
              hint="Plain text, or JSON when it starts with { or [. Returned to the agent for every call."
              rows={3}
              spellCheck={false}
              className="font-mono text-xs"
            />
            {!readOnly && (
              <div className="flex justify-end">
                <Button variant="ghost" size="sm" onClick={() => remove(i)}>
                  Remove tool
                </Button>
              </div>
            )}
          </fieldset>
        );
      })}
    </Card>
  );
}
