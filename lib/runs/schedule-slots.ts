/**
 * Schedule slot arithmetic: a schedule as a cron pattern and its due times in a time zone
 * (croner's time-zone and DST rules, see ./scheduler.ts). Pure, so both the run scheduler and
 * the nightly retention cleanup (lib/retention/cleanup.ts) build on it without importing each
 * other.
 */
import { Cron } from "croner";

export type ScheduleType = "manual" | "hourly" | "daily" | "weekly";
export type Schedule = { type: ScheduleType; time: string | null; dayOfWeek: number | null };

function parseTime(time: string | null): { h: number; m: number } | null {
  const match = time ? /^(\d{2}):(\d{2})$/.exec(time) : null;
  if (!match) return null;
  const h = Number(match[1]);
  const m = Number(match[2]);
  return h < 24 && m < 60 ? { h, m } : null;
}

/** The schedule as a 5-field cron pattern, or null for manual/incomplete schedules. */
export function cronPattern(schedule: Schedule): string | null {
  switch (schedule.type) {
    case "manual":
      return null;
    case "hourly":
      return `${parseTime(schedule.time)?.m ?? 0} * * * *`;
    case "daily": {
      const t = parseTime(schedule.time);
      return t ? `${t.m} ${t.h} * * *` : null;
    }
    case "weekly": {
      const t = parseTime(schedule.time);
      const dow = schedule.dayOfWeek;
      if (!t || dow === null || !Number.isInteger(dow) || dow < 0 || dow > 6) return null;
      return `${t.m} ${t.h} * * ${dow}`;
    }
  }
}

const crons = new Map<string, Cron>();
function cronFor(schedule: Schedule, timeZone: string): Cron | null {
  const pattern = cronPattern(schedule);
  if (!pattern) return null;
  const key = `${pattern}|${timeZone}`;
  let cron = crons.get(key);
  if (!cron) {
    // No callback: croner only computes times and never starts a timer.
    cron = new Cron(pattern, { timezone: timeZone, mode: "5-part" });
    if (crons.size > 1000) crons.clear();
    crons.set(key, cron);
  }
  return cron;
}

/** The latest slot at or before `now`, or null for manual/incomplete schedules. */
export function mostRecentDueTime(schedule: Schedule, now: Date, timeZone = "UTC"): Date | null {
  // croner counts a run earlier than the reference; +1 ms makes a slot at exactly `now` count.
  return cronFor(schedule, timeZone)?.previousRuns(1, new Date(now.getTime() + 1))[0] ?? null;
}

/** The first slot strictly after `after`, or null for manual/incomplete schedules. */
export function nextDueTime(schedule: Schedule, after: Date, timeZone = "UTC"): Date | null {
  return cronFor(schedule, timeZone)?.nextRun(after) ?? null;
}

/** Whether `timeZone` is an IANA zone this runtime knows (Intl's list: what croner uses too). */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return timeZone.length > 0;
  } catch {
    return false;
  }
}
