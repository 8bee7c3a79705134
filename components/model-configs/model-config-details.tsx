import type { ModelConfigDto } from "@/lib/model-configs/dto";

/** Read-only view of a model configuration (no secrets: only the key's hint). */
export function ModelConfigDetails({ config }: { config: ModelConfigDto }) {
  const rows: [string, React.ReactNode][] = [
    [
      "Base URL",
      <code key="u" className="break-all">
        {config.base_url}
      </code>,
    ],
    ["Model", config.model],
    ["Embedding model", config.embedding_model ?? "—"],
    ["API key", config.has_api_key ? config.api_key_hint : "None"],
    ["Temperature", config.temperature ?? "Endpoint default"],
    ["Max tokens", config.max_tokens ?? "Endpoint default"],
    ["Input price / 1M tokens", config.input_price_per_mtok ?? "Not set"],
    ["Output price / 1M tokens", config.output_price_per_mtok ?? "Not set"],
    ["Vision-capable", config.supports_vision ? "Yes: image files are sent as images" : "No"],
    ["Rate limits", rateLimits(config)],
  ];
  return (
    <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-2 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The declared provider limits in one line, or how limits are found when none are declared. */
function rateLimits(config: Pick<ModelConfigDto, "rpm" | "tpm" | "max_concurrency">): string {
  const parts = [
    config.rpm !== null ? `${config.rpm.toLocaleString("en-US")} requests/min` : null,
    config.tpm !== null ? `${config.tpm.toLocaleString("en-US")} tokens/min` : null,
    config.max_concurrency !== null ? `${config.max_concurrency.toLocaleString("en-US")} at once` : null,
  ].filter(Boolean);
  return parts.length ? parts.join(" · ") : "None declared: learned from the provider's 429 answers";
}
