export const DAYS_OF_WEEK = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;

export const SCHEDULE_LABELS = { manual: "Manual", hourly: "Hourly", daily: "Daily", weekly: "Weekly" } as const;

/** "Manual", "Hourly at :15 UTC", "Daily at 09:00 UTC", "Weekly on Monday at 09:00 UTC" (schedules are UTC). */
export function scheduleSummary(s: {
  schedule_type: keyof typeof SCHEDULE_LABELS;
  schedule_time: string | null;
  schedule_day_of_week: number | null;
}): string {
  switch (s.schedule_type) {
    case "manual":
      return SCHEDULE_LABELS.manual;
    case "hourly":
      return `Hourly at :${s.schedule_time?.slice(3) ?? "00"} UTC`;
    case "daily":
      return s.schedule_time ? `Daily at ${s.schedule_time} UTC` : "Daily";
    case "weekly": {
      const day = s.schedule_day_of_week === null ? null : DAYS_OF_WEEK[s.schedule_day_of_week];
      return `Weekly${day ? ` on ${day}` : ""}${s.schedule_time ? ` at ${s.schedule_time} UTC` : ""}`;
    }
  }
}
