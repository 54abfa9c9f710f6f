// The RateLimit-Policy and RateLimit fields of an HTTP answer, for the caller's key's PostHog
// budget, as draft-ietf-httpapi-ratelimit-headers-10 (§3, §4) spells them: each a Structured
// Field list of quota policies, one item per window ("minute", "hour"), the policy with its quota
// `q` and window `w` in seconds, the current state with what remains `r` and the seconds `t`
// until room comes back. No partition key (`pk`) is sent: nothing of the key is in any header.
import type { BudgetLeft, WindowLeft } from '../upstream/keys/budget-left.ts';

const WINDOWS = [
  ['minute', 60],
  ['hour', 3_600],
] as const;

/** The two fields, as [name, value]; none when the budget has no limit (or there is no key). */
export function rateLimitFields(left: BudgetLeft | null): [string, string][] {
  if (!left) return [];
  const windows = WINDOWS.flatMap(([name, seconds]) => {
    const window: WindowLeft | undefined = left[name];
    return window ? [{ name, seconds, window }] : [];
  });
  if (windows.length === 0) return [];
  return [
    ['RateLimit-Policy', windows.map((w) => `"${w.name}";q=${w.window.limit};w=${w.seconds}`).join(', ')],
    [
      'RateLimit',
      windows.map((w) => `"${w.name}";r=${w.window.remaining};t=${w.window.resetSeconds}`).join(', '),
    ],
  ];
}
