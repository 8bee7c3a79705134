import type { WebhookDeliveryDto, WebhookDto } from "@/lib/webhooks/dto";
import { Badge, Section } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHeader, TableRow } from "@/components/ui/table";
import { Pagination } from "@/components/ui/pagination";
import { formatDateTime, formatDuration } from "@/components/runs/format";
import { RedeliverButton } from "./redeliver-button";
import { AutoRefresh } from "./auto-refresh";

const STATUS_TONE = { succeeded: "green", failed: "red", pending: "amber", delivering: "blue" } as const;

/** The selected webhook's delivery log: status, response code and time, attempts, body excerpt, Redeliver. */
export function DeliveriesLog({
  workspaceId,
  webhook,
  deliveries,
  cursor,
  nextCursor,
}: {
  workspaceId: string;
  webhook: WebhookDto;
  deliveries: WebhookDeliveryDto[];
  cursor: string | null;
  nextCursor: string | null;
}) {
  const inFlight = deliveries.some((d) => d.status === "pending" || d.status === "delivering");
  return (
    <Section id="deliveries" title="Deliveries" description={<span className="font-mono break-all">{webhook.url}</span>}>
      <AutoRefresh active={inFlight} />
      {deliveries.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing sent yet. Use “Send test event” to try the endpoint.</p>
      ) : (
        <Table variant="plain" density="compact" caption={`Deliveries to ${webhook.url}`}>
          <TableHeader
            columns={["Event", "Status", "Response", "Time", "Attempts", "Created", "Body", { label: "Actions", srOnly: true }]}
          />
          <TableBody>
            {deliveries.map((d) => (
              <TableRow key={d.id} data-testid="delivery-row">
                <TableCell className="font-mono text-xs">{d.event}</TableCell>
                <TableCell>
                  <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
                  {d.status === "pending" && d.attempts > 0 && d.next_attempt_at && (
                    <span className="block text-xs text-slate-500">retry {formatDateTime(d.next_attempt_at)}</span>
                  )}
                </TableCell>
                <TableCell data-testid="delivery-status-code" className="tabular-nums">
                  {d.last_status_code ?? (d.last_error ? <span className="text-red-700">{d.last_error}</span> : "—")}
                </TableCell>
                <TableCell className="tabular-nums">{d.last_duration_ms === null ? "—" : formatDuration(d.last_duration_ms)}</TableCell>
                <TableCell className="tabular-nums">{d.attempts}</TableCell>
                <TableCell className="text-xs whitespace-nowrap text-slate-600">{formatDateTime(d.created_at)}</TableCell>
                <TableCell className="max-w-64">
                  {d.last_response ? (
                    <code className="block truncate text-xs text-slate-600" title={d.last_response}>
                      {d.last_response}
                    </code>
                  ) : (
                    "—"
                  )}
                </TableCell>
                <TableCell className="text-right">
                  <RedeliverButton workspaceId={workspaceId} webhookId={webhook.id} deliveryId={d.id} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Pagination
        className="mt-3"
        base={`/w/${workspaceId}/settings/webhooks`}
        params={{ webhook: webhook.id }}
        cursor={cursor}
        nextCursor={nextCursor}
      />
    </Section>
  );
}
