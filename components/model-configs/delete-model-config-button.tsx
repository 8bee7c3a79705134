"use client";
import { deleteModelConfigAction } from "@/lib/model-configs/actions";
import { DeleteButton } from "@/components/ui/delete-button";

const count = (n: number, noun: string) => (n ? `${n} ${noun}${n === 1 ? "" : "s"}` : null);

/**
 * Deletes after confirmation. When agents or suites use the configuration, the dialog says so
 * and confirming deletes anyway (force); otherwise a concurrent new use is refused by the server.
 */
export function DeleteModelConfigButton(props: {
  workspaceId: string;
  config: { id: string; name: string };
  usage: { agents: number; suites: number };
  redirectTo?: string;
}) {
  const { workspaceId, config, usage } = props;
  const inUse = usage.agents + usage.suites > 0;
  const uses = [count(usage.agents, "agent"), count(usage.suites, "suite")].filter(Boolean).join(" and ");
  const description = inUse
    ? `It is used by ${uses}. They will be left without a model configuration until you choose another one.`
    : "This cannot be undone.";
  return (
    <DeleteButton
      size="sm"
      align="end"
      name={config.name}
      description={description}
      confirmLabel={inUse ? "Delete anyway" : "Delete"}
      action={() => deleteModelConfigAction(workspaceId, { id: config.id, force: inUse })}
      redirectTo={props.redirectTo}
    />
  );
}
