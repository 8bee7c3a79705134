import { withApi } from "@/lib/api/handler";
import { receiveTraces } from "@/lib/traffic/otlp/receive";

/**
 * OTLP/HTTP traces (the OpenTelemetry exporters' `…/v1/traces`): an editor key or an ingest-only
 * key of the workspace the conversations land in. The body is read and answered by the receiver
 * (protobuf or JSON, gzip or not), not by the JSON body parsing of withApi.
 */
export const POST = withApi({
  role: "editor",
  ingest: true,
  handler: async ({ req, ctx }) => receiveTraces(req, ctx.workspaceId),
});
