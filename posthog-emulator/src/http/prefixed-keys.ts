// Keys nobody seeded, for a load that sends a key per caller or per request (the gateway's bench,
// a test of its per-key memory): with a prefix set (`--any-key-prefix phx_bench_`), a key made of
// that prefix and 1 to 64 letters, digits, `_` or `-` authenticates as a full key of user 1 with
// project 1 current: `*`, or unscoped in the mid-2024 dialect (there only an unscoped key may
// read important changes, as `phx_legacy`). A test double, not a PostHog fact: such a key is made
// afresh at each request and never stored, so the emulator holds nothing per key.
import type { Dialect } from '../dialect.ts';
import type { ApiKey } from '../model.ts';

const SUFFIX = /^[A-Za-z0-9_-]{1,64}$/;

/** The key `value` stands for under `prefix`; undefined when there is no prefix or it does not match. */
export function prefixedKey(prefix: string | null, dialect: Dialect, value: string): ApiKey | undefined {
  if (!prefix || !value.startsWith(prefix) || !SUFFIX.test(value.slice(prefix.length))) return undefined;
  return { value, userId: 1, scopes: dialect === 'posthog' ? null : ['*'], currentProjectId: 1 };
}
