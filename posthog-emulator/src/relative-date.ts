// posthog/utils.py relative_date_parse (with relative_date_parse_with_delta_mapping and
// get_delta_mapping_for), for a project in UTC and without `always_truncate`: an ISO date or
// datetime (a naive one in the project's zone; also an unpadded `2021-1-1`), else the first
// `-<n><kind>[Start|End]` found, subtracted from now as a dateutil relativedelta (months and years
// clamp the day to the month's end; Start/End set the smaller units), else now.
import { isoMicros } from './batch-exports/readers.ts';

const MINUTE = 60_000_000;
const FIXED: Record<string, number> = {
  h: 60 * MINUTE,
  d: 1440 * MINUTE,
  w: 7 * 1440 * MINUTE,
  M: MINUTE,
  s: 1_000_000,
  q: 13 * 7 * 1440 * MINUTE,
};

export function relativeDateParse(text: string, now: number): number {
  const iso = isoMicros(text) ?? unpaddedDate(text);
  if (iso !== null) return iso.micros;
  const match = /-?([0-9]+)?([hdwmqysHDWMQY])(Start|End)?/.exec(text);
  if (!match) return now;
  const n = match[1] ? Number(match[1]) : 0;
  const [, , kind, position] = match;
  const date = new Date(Math.floor(now / 1000));
  // The microseconds below the millisecond a Date holds.
  let subMillis = now % 1000;
  if (kind! in FIXED) {
    date.setTime(date.getTime() - (n * FIXED[kind!]!) / 1000);
  } else if (kind === 'm' || kind === 'y') {
    shiftMonths(date, kind === 'm' ? -n : -12 * n);
  }
  // Start/End: the absolute units relativedelta sets after the shift.
  if (position === 'Start' || position === 'End') {
    const end = position === 'End';
    if (kind === 'h') date.setUTCMinutes(end ? 59 : 0, end ? 59 : 0, end ? 999 : 0);
    else if (kind === 'd') date.setUTCHours(end ? 23 : 0, end ? 59 : 0, end ? 59 : 0, end ? 999 : 0);
    else if (kind === 'm') setDay(date, end ? 31 : 1);
    else if (kind === 'y') {
      if (end) setDay(date, 31);
      else date.setUTCMonth(0, 1);
    }
    if (kind === 'h' || kind === 'd') subMillis = end ? 999 : 0;
  }
  return date.getTime() * 1000 + subMillis;
}

/** relativedelta(months=±n): the same day, clamped to the target month's last day. */
function shiftMonths(date: Date, months: number): void {
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  setDay(date, day);
}

/** relativedelta(day=n): the day, clamped to the month's last day. */
function setDay(date: Date, day: number): void {
  const last = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, last));
}

/** strptime("%Y-%m-%d") also takes unpadded months and days. */
function unpaddedDate(text: string): { micros: number } | null {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(text);
  return m ? { micros: Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) * 1000 } : null;
}
