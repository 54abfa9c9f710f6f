// The one upstream call of the bench's floor and bare yoga servers: a GET through a keep-alive
// undici Pool, the caller's Authorization forwarded, the JSON answer parsed. As many connections
// as the gateway keeps calls in flight by default (UPSTREAM_MAX_IN_FLIGHT, 256): with 32, 50
// clients of the combined view (18 calls each) queued in the pool, and the floor answered at
// p50 677 ms against a 20 ms upstream, a queue's latency, not a floor's.
import { Pool } from 'undici';

export function upstreamGetter(origin) {
  const pool = new Pool(origin, { connections: 256 });
  async function get(path, authorization) {
    const { statusCode, body } = await pool.request({ path, method: 'GET', headers: { authorization } });
    const json = await body.json();
    if (statusCode >= 400) throw new Error(`upstream ${statusCode}`);
    return json;
  }
  return { get, close: () => pool.close() };
}
