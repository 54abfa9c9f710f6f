// undici's Pool, its Client and its `request`, loaded without the rest of undici. `import { Pool } from
// 'undici'` runs the package's index, which also loads fetch, WebSocket, EventSource, the HTTP
// cache, the mock agents and what they need, none of which the gateway uses, all held in its heap
// at rest. Heap at rest is paid again under load: V8 sets each next heap limit at a multiple of
// what survived the last mark-compact (docs/performance.md).
//
// The index gives a Pool its `request` with `Object.assign(Dispatcher.prototype, api)`. Here the
// same function is called on the pool instead, so no prototype is changed. undici declares no
// package "exports", so these are its files as published; package.json pins the version, and
// every test that reaches the upstream goes through them.
import { createRequire } from 'node:module';
import type { Dispatcher, Client as UndiciClient, Pool as UndiciPool } from 'undici';

const load = createRequire(import.meta.url);

export type Pool = UndiciPool;
export const Pool: typeof UndiciPool = load('undici/lib/dispatcher/pool.js');

/** One connection's dispatcher, which a Pool's `factory` makes (loaded by pool.js already). */
export type Client = UndiciClient;
export const Client: typeof UndiciClient = load('undici/lib/dispatcher/client.js');

type Request = (this: Pool, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
const request: Request = load('undici/lib/api/api-request.js');

/** `pool.request(options)`, as undici's index would have it. */
export function requestOn(pool: Pool, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return request.call(pool, options);
}
