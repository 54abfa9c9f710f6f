// One contender under load: a check that it answers a scenario without errors (and how many
// upstream calls one operation makes), then autocannon's figures with its CPU time and peak RSS.
import autocannon from 'autocannon';
import { CLOCK_TICKS, cpuTicks, type Process, rssBytes } from './processes.ts';
import { MESH, type Scenario, TAILCALL } from './scenarios.ts';

const QUICK = process.argv.includes('--quick');
/**
 * Timed rounds per contender and their length. Four rounds of 5 s rather than two of 10: the same
 * time under load, but taken in turn twice as often, so that the machine's drift over a scenario
 * (a 2-core VM's CPU per operation moved by 15-25 % over a minute) falls on every contender
 * alike, and a peak RSS is the largest of four.
 */
export const ROUNDS = QUICK ? 1 : 4;
export const SECONDS = QUICK ? 2 : 5;
export const CONNECTIONS = 50;
/** Untimed load right before each round (run.ts says why). */
export const WARM_UP_SECONDS = QUICK ? 1 : 2;

/** The mean of a scenario's rounds, as run.ts and one-query.ts report them. */
export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function control(upstreamUrl: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${upstreamUrl}/__control/${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.status === 204 ? null : response.json();
}

export function request(contender: Process, scenario: Scenario) {
  if (contender.name === 'floor')
    return { url: `${contender.url}${scenario.floorPath}`, method: 'GET' as const };
  const query =
    contender.name === MESH
      ? scenario.meshQuery
      : contender.name === TAILCALL
        ? scenario.tailcallQuery
        : scenario.query;
  return { url: contender.url, method: 'POST' as const, body: JSON.stringify({ query }) };
}

/** The contenders that run a scenario: all, but Mesh and Tailcall only where they have a query for it. */
export const runningIn = (contenders: Process[], scenario: Scenario) =>
  contenders.filter(
    (c) =>
      (c.name !== MESH || scenario.meshQuery !== undefined) &&
      (c.name !== TAILCALL || scenario.tailcallQuery !== undefined),
  );

export const CHECKS = 3;

/**
 * Requests outside the timed window, one after another: each answer must carry data and no
 * error, and the upstream calls the last one causes are the scenario's exact figure (under load
 * the request log also holds calls of operations cut when the window closes). The last: what a
 * contender keeps across requests (the gateway, a key's plugin templates) is kept by then, as
 * it is all through the timed window.
 */
export async function check(
  contender: Process,
  scenario: Scenario,
  upstreamUrl: string,
  key: string,
  settle = true,
): Promise<number> {
  const { url, method, body } = request(contender, scenario) as {
    url: string;
    method: string;
    body?: string;
  };
  // Operations cut when the last window closed may still be calling the upstream: let them end.
  if (settle) await new Promise((resolve) => setTimeout(resolve, 1_000));
  for (let i = 0; i < CHECKS; i++) {
    await control(upstreamUrl, 'DELETE', 'requests');
    const response = await fetch(url, {
      method,
      body,
      headers: { 'content-type': 'application/json', authorization: key },
    });
    const answer = (await response.json()) as { data?: unknown; errors?: unknown };
    if (!answer.data || answer.errors)
      throw new Error(`${contender.name} / ${scenario.name}: ${JSON.stringify(answer).slice(0, 300)}`);
  }
  return ((await control(upstreamUrl, 'GET', 'requests')) as unknown[]).length;
}

/** autocannon's request that sends `key()` as each request's Authorization (built afresh each time). */
export const withKey = (key: () => string): autocannon.Request => ({
  setupRequest: (request) => ({ ...request, headers: { ...request.headers, authorization: key() } }),
});

export interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuMicrosPerOp: number;
  peakRssMb: number;
  upstreamCallsPerOp: number;
  errors: number;
}

/** The Authorization every request sends, or a function giving each request's own (per-key.ts). */
export type KeyOf = string | (() => string);

export async function measure(
  contender: Process,
  scenario: Scenario,
  key: KeyOf,
  seconds = SECONDS,
): Promise<Omit<Figures, 'upstreamCallsPerOp'>> {
  const pid = contender.child.pid!;
  let peak = rssBytes(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssBytes(pid));
  }, 50);
  const ticksBefore = cpuTicks(pid);
  const result = await autocannon({
    ...request(contender, scenario),
    connections: CONNECTIONS,
    duration: seconds,
    headers: {
      'content-type': 'application/json',
      ...(typeof key === 'string' ? { authorization: key } : {}),
    },
    ...(typeof key === 'string' ? {} : { requests: [withKey(key)] }),
    // An answer with GraphQL errors is a 200 too: count it as an error.
    verifyBody: (body) => !String(body ?? '').includes('"errors"'),
  });
  const ticks = cpuTicks(pid) - ticksBefore;
  clearInterval(sampler);
  const operations = result.requests.total;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMicrosPerOp: ((ticks / CLOCK_TICKS) * 1e6) / Math.max(1, operations),
    peakRssMb: peak / 1024 / 1024,
    errors: result.non2xx + result.errors + result.timeouts + result.mismatches,
  };
}
