// An activity entry's date as a number to compare. PostHog writes a date as Python's isoformat
// does: on a whole second, no fraction (`…:22Z`), which as text sorts after `…:22.5Z`.

/** Microseconds since the epoch of an ISO date-time with up to six digits of fraction. */
export function instant(createdAt: string): number {
  const fraction = /\.(\d{1,6})/.exec(createdAt)?.[1] ?? '';
  return Date.parse(createdAt) * 1000 + (Number(fraction.padEnd(6, '0')) % 1000);
}
