"use client";
import { useFormContext } from "react-hook-form";
import { FormInput, FormTextarea } from "@/components/forms/form-input";
import { FormSection } from "./case-form-basics";
import { JsonObjectField } from "./json-object-field";
import type { CaseFormValues } from "./form-values";

export function ConversationSection() {
  const form = useFormContext<CaseFormValues>();
  const { register, watch, formState } = form;
  const { errors } = formState;
  const multiTurn = watch("multi_turn");
  return (
    <FormSection
      title="Conversation"
      description="Without a simulated user the initial message is the single question and the agent answers once. With one, an LLM plays the persona in a multi-turn conversation."
    >
      <FormTextarea
        form={form}
        name="initial_message"
        label="Initial message"
        hint="First message the user sends to the agent. A case needs this or a persona to run."
        rows={3}
      />

      <div className="rounded-md border border-slate-200 p-4">
        <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
          <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register("multi_turn")} />
          Simulated user (multi-turn)
        </label>
        {multiTurn && (
          <div className="mt-4 space-y-4">
            <FormInput
              form={form}
              name="persona.type"
              label="Persona type"
              required
              hint='Short archetype label, e.g. "frustrated-user"'
              maxLength={100}
            />
            <FormTextarea form={form} name="persona.description" label="Persona description" required rows={2} />
            <FormTextarea
              form={form}
              name="persona.instructions"
              label="Persona instructions"
              required
              hint="Behavioural directives for the simulated user"
              rows={3}
            />
            {/* Only the simulated user reads the context, and only a conversation has turns to cap. */}
            <JsonObjectField
              name="user_context"
              label="User context (JSON object)"
              hint="What the simulated user knows, dumped into its prompt. Leave empty for none."
              placeholder={'{\n  "account_id": "A-1001",\n  "plan": "pro"\n}'}
            />
            <FormInput
              form={form}
              name="max_turns"
              label="Max turns"
              hint="Leave empty for no cap: the conversation ends when the agent or the simulated user ends it"
              inputMode="numeric"
              className="max-w-40"
              aria-describedby={errors.max_turns ? "max_turns-error" : "max_turns-hint"}
            />
          </div>
        )}
      </div>
    </FormSection>
  );
}
