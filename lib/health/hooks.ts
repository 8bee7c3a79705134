import { useQuery } from "@tanstack/react-query";
import { apiGet } from "@/lib/runs/hooks";

/** What GET /api/health says about the run executor (lib/health/service.ts). */
export type ExecutorHealthDto = {
  state: "up" | "restarting" | "down";
  last_heartbeat_at: string | null;
  seconds_since_heartbeat: number | null;
  processes: number;
  restarts: number | null;
};

/** The executor's health, polled every few seconds while `enabled` (a live run's page). */
export function useExecutorHealth(enabled: boolean) {
  return useQuery({
    queryKey: ["health", "executor"],
    queryFn: async ({ signal }) => (await apiGet<{ status: string; executor?: ExecutorHealthDto }>("/api/health", signal)).executor ?? null,
    enabled,
    refetchInterval: enabled ? 3_000 : false,
    retry: false,
  });
}
