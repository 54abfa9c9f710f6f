// The one upstream call of the bench's floor and bare yoga servers: a GET through a keep-alive
// undici Pool, the caller's Authorization forwarded, the JSON answer parsed.
import { Pool } from 'undici';

export function upstreamGetter(origin) {
  const pool = new Pool(origin, { connections: 32 });
  async function get(path, authorization) {
    const { statusCode, body } = await pool.request({ path, method: 'GET', headers: { authorization } });
    const json = await body.json();
    if (statusCode >= 400) throw new Error(`upstream ${statusCode}`);
    return json;
  }
  return { get, close: () => pool.close() };
}
