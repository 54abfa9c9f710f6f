// The caller's key, as the gateway tells keys apart: the Authorization header, spelt as PostHog
// reads it (`Bearer <key>`), is what goes upstream on every path, and its hash is what slots,
// wakes and pollers are keyed by (no key is kept in them). A leaf module.
import { hash } from 'node:crypto';

export type KeyHash = string & { readonly __keyHash: unique symbol };

/**
 * The header as PostHog reads it, `Bearer <key>` (the scheme in any case, any spaces, as sent), or
 * null when it holds no key the upstream could take: absent, blank, or without the `Bearer`
 * scheme (PostHog answers anything else with "Authentication credentials were not provided.").
 * The gateway refuses those itself, saying how to send the key (keyless.ts), and calls nothing
 * upstream.
 */
export const authorizationOf = (header: string | null | undefined): string | null =>
  header && BEARER_KEY.test(header) ? `Bearer ${header.trim().replace(BEARER_SCHEME, '')}` : null;

const BEARER_SCHEME = /^bearer\s+/i;

/** `Bearer`, in any case, then the key: how a PostHog personal API key is sent. */
const BEARER_KEY = /^\s*bearer\s+\S/i;

/** Whether a header was sent that is not `Bearer <key>` (so a refusal can say what to change). */
export const isMisspeltAuthorization = (header: string | null | undefined): boolean =>
  header != null && header.trim() !== '' && !BEARER_KEY.test(header);

/**
 * One hash per key however its header is spelled: `Bearer  phx_…`, `Bearer\tphx_…` and
 * `bearer phx_…` are one key, so spelling it otherwise wins no more subscription slots.
 */
export const hashKey = (authorization: string): KeyHash =>
  // crypto.hash, one call: cheaper than createHash's object, once per request.
  hash('sha256', normalizeAuthorization(authorization), 'hex') as KeyHash;

/** The scheme in lower case, one space, the credentials: how slots and wakes tell keys apart. */
export function normalizeAuthorization(authorization: string): string {
  const [scheme = '', ...rest] = authorization.trim().split(/\s+/);
  return `${scheme.toLowerCase()} ${rest.join(' ')}`;
}
