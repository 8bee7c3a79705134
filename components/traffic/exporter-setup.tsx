/** How to send an agent's traces here: the two OpenTelemetry environment variables, for any SDK. */
export function ExporterSetup() {
  return (
    <section aria-labelledby="exporter-setup" className="space-y-2 rounded-md border border-slate-200 bg-white p-4 text-sm text-slate-700">
      <h2 id="exporter-setup" className="text-base font-semibold text-slate-900">
        Send your agent&apos;s traces
      </h2>
      <p>
        Create an API key with <strong>Ingest only</strong> (Workspace settings → API keys), then set these two variables where your agent
        runs. Any OpenTelemetry SDK (Node, Python…) with an OTLP/HTTP exporter sends its spans here; GenAI semantic conventions and
        OpenInference spans become conversations.
      </p>
      <pre className="overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
        {`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=<this server>/api/v1/otlp/v1/traces
OTEL_EXPORTER_OTLP_TRACES_HEADERS=Authorization=Bearer%20<ingest key>`}
      </pre>
      <p>Set an agent&apos;s OpenTelemetry service name (on the agent&apos;s page) to link its traffic to it.</p>
    </section>
  );
}
