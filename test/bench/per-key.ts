// The per-key part of npm run bench: the gateway answering one query with one key for every
// request, with a key per client (as many keys as connections: CONNECTIONS keys, taken in turn),
// and with a key per request (each request a key the gateway has never seen, as Grafbase's
// published gateway benchmarks send them, so that nothing is won by sharing work between
// callers), against the reference upstream in today's PostHog's dialect started with
// --any-key-prefix. Rounds as run.ts takes them (untimed load before each, the modes in turn,
// every other round in reverse, after untimed load of every mode first). Per query and mode:
// req/s, req/s per core (a second of CPU over the CPU one operation takes), p50/p99, CPU µs per
// operation, peak RSS, and the upstream calls of one operation once the rounds are done (the
// upstream's request log around one request with the mode's next key).
//
// Then what the gateway keeps per key (budgets, key standing, grants, plugin templates, kept
// answers when on, whatever else outlives a request): its heap after a full GC, read through the
// inspector of a gateway of its own, after one key's warm-up, after PER_KEY_STATE_KEYS keys of
// one request each, and after as many more (past the per-key tables' bounds of 10,000 keys, what
// is kept should stop growing). A measurement, not a test: nothing here asserts.
import { once } from 'node:events';
import { createServer } from 'node:net';
import autocannon from 'autocannon';
import WebSocket from 'ws';
import {
  CONNECTIONS,
  check,
  control,
  type KeyOf,
  mean,
  measure,
  ROUNDS,
  WARM_UP_SECONDS,
  withKey,
} from './measure.ts';
import {
  GATEWAY_ENV,
  GATEWAY_LISTENING,
  LISTENING,
  type Process,
  rssBytes,
  start,
  stopProcesses,
} from './processes.ts';
import { SCENARIOS, type Scenario } from './scenarios.ts';

/** The queries run with a key per client and per request: one call, and nine (four kept per key). */
export const PER_KEY_SCENARIOS = ['one config by id', 'destinations, all three kinds'];
/** Keys sent before the per-key state is read, and as many again after. */
export const PER_KEY_STATE_KEYS = 10_000;
const PREFIX = 'phx_bench_';
const MB = 1024 * 1024;

export interface PerKeyFigures {
  scenario: string;
  keys: 'one key' | 'a key per client' | 'a key per request';
  requestsPerSecond: number;
  requestsPerSecondPerCore: number;
  p50: number;
  p99: number;
  cpuMicrosPerOp: number;
  peakRssMb: number;
  upstreamCallsPerOp: number;
  errors: number;
}

export interface PerKeyState {
  scenario: string;
  /** Distinct keys sent so far (the warm-up's one not counted). */
  keys: number;
  heapUsedMb: number;
  rssMb: number;
  /** What the heap grew since the row before, per key sent since. */
  bytesPerKey: number;
}

let sent = 0;
const MODES: { keys: PerKeyFigures['keys']; key: () => KeyOf }[] = [
  { keys: 'one key', key: () => `Bearer ${PREFIX}one` },
  {
    keys: 'a key per client',
    key: () => {
      let i = 0;
      return () => `Bearer ${PREFIX}client_${i++ % CONNECTIONS}`;
    },
  },
  { keys: 'a key per request', key: () => () => `Bearer ${PREFIX}request_${sent++}` },
];

const startUpstream = () =>
  start(
    'upstream (posthog-2026, any key)',
    ['posthog-emulator/dist/cli.js', '--port', '0', '--dialect', 'posthog-2026', '--any-key-prefix', PREFIX],
    {},
    LISTENING,
  );

/** One timed window of `mode`, after its untimed load (the upstream's log emptied after it). */
async function window(gateway: Process, scenario: Scenario, upstreamUrl: string, key: KeyOf) {
  await measure(gateway, scenario, key, WARM_UP_SECONDS);
  const f = await measure(gateway, scenario, key);
  await control(upstreamUrl, 'DELETE', 'requests');
  return f;
}

/**
 * The upstream calls of one request with the mode's next key, alone: under load the log also
 * holds the calls of operations cut when the window closes, many per operation at a few dozen a
 * second.
 */
async function callsOfOne(gateway: Process, scenario: Scenario, upstreamUrl: string, key: KeyOf) {
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await control(upstreamUrl, 'DELETE', 'requests');
  const response = await fetch(gateway.url, {
    method: 'POST',
    body: JSON.stringify({ query: scenario.query }),
    headers: { 'content-type': 'application/json', authorization: typeof key === 'string' ? key : key() },
  });
  const answer = (await response.json()) as { errors?: unknown };
  if (answer.errors) throw new Error(`per key / ${scenario.name}: ${JSON.stringify(answer).slice(0, 300)}`);
  return ((await control(upstreamUrl, 'GET', 'requests')) as unknown[]).length;
}

/** The three modes of one query in one gateway, ROUNDS rounds taken in turn. */
async function measureModes(scenario: Scenario, upstreamUrl: string): Promise<PerKeyFigures[]> {
  const gateway = await start(
    'gateway',
    ['dist/main.js'],
    { UPSTREAM_URL: upstreamUrl, ...GATEWAY_ENV },
    GATEWAY_LISTENING,
  );
  await check(gateway, scenario, upstreamUrl, `Bearer ${PREFIX}one`, false);
  const keys = MODES.map((m) => m.key());
  const rounds = MODES.map(() => [] as Awaited<ReturnType<typeof window>>[]);
  // Untimed load of every mode before the first round: none is measured in a gateway still compiling.
  for (const key of keys) await measure(gateway, scenario, key, WARM_UP_SECONDS);
  for (let round = 0; round < ROUNDS; round++) {
    const order = MODES.map((_, i) => i);
    for (const i of round % 2 === 0 ? order : order.reverse())
      rounds[i]!.push(await window(gateway, scenario, upstreamUrl, keys[i]!));
  }
  const calls: number[] = [];
  for (const key of keys) calls.push(await callsOfOne(gateway, scenario, upstreamUrl, key));
  await stopProcesses([gateway.child]);
  return MODES.map((m, i) => {
    const all = rounds[i]!;
    const of = (pick: (f: (typeof all)[number]) => number) => mean(all.map(pick));
    const cpuMicrosPerOp = of((f) => f.cpuMicrosPerOp);
    return {
      scenario: scenario.name,
      keys: m.keys,
      requestsPerSecond: of((f) => f.requestsPerSecond),
      requestsPerSecondPerCore: 1e6 / cpuMicrosPerOp,
      p50: of((f) => f.p50),
      p99: of((f) => f.p99),
      cpuMicrosPerOp,
      peakRssMb: Math.max(...all.map((f) => f.peakRssMb)),
      upstreamCallsPerOp: calls[i]!,
      errors: all.reduce((n, f) => n + f.errors, 0),
    };
  });
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The process's heap in use after two full GCs, read through its inspector at `port`. */
async function heapUsedAfterGc(port: number): Promise<number> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await once(socket, 'open');
  let id = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { value?: number } }>((resolve) => {
      const mine = ++id;
      const listener = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as { id?: number; result: { result?: { value?: number } } };
        if (message.id !== mine) return;
        socket.off('message', listener);
        resolve(message.result);
      };
      socket.on('message', listener);
      socket.send(JSON.stringify({ id: mine, method, params }));
    });
  await call('HeapProfiler.collectGarbage');
  await call('HeapProfiler.collectGarbage');
  const answer = await call('Runtime.evaluate', {
    expression: 'process.memoryUsage().heapUsed',
    returnByValue: true,
  });
  socket.close();
  return answer.result!.value!;
}

/** `count` requests of `scenario`, each with a key of its own; the errors among them. */
async function sendKeys(gateway: Process, scenario: Scenario, count: number, name: string): Promise<number> {
  let i = 0;
  const result = await autocannon({
    url: gateway.url,
    method: 'POST',
    body: JSON.stringify({ query: scenario.query }),
    headers: { 'content-type': 'application/json' },
    connections: CONNECTIONS,
    amount: count,
    requests: [withKey(() => `Bearer ${PREFIX}${name}_${i++}`)],
    verifyBody: (body) => !String(body ?? '').includes('"errors"'),
  });
  return result.non2xx + result.errors + result.timeouts + result.mismatches;
}

/** The heap of a gateway of its own after one key's warm-up, then after each batch of new keys. */
async function measureState(scenario: Scenario, upstreamUrl: string): Promise<PerKeyState[]> {
  const port = await freePort();
  const gateway = await start(
    'gateway, inspected',
    [`--inspect=127.0.0.1:${port}`, 'dist/main.js'],
    { UPSTREAM_URL: upstreamUrl, ...GATEWAY_ENV },
    GATEWAY_LISTENING,
  );
  await measure(gateway, scenario, `Bearer ${PREFIX}one`, WARM_UP_SECONDS * 2);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));
  const states: PerKeyState[] = [];
  const state = async (keys: number) => {
    await control(upstreamUrl, 'DELETE', 'requests');
    await settle();
    const heapUsedMb = (await heapUsedAfterGc(port)) / MB;
    const rssMb = rssBytes(gateway.child.pid!) / MB;
    const last = states.at(-1);
    const bytesPerKey = last ? ((heapUsedMb - last.heapUsedMb) * MB) / (keys - last.keys) : 0;
    states.push({ scenario: scenario.name, keys, heapUsedMb, rssMb, bytesPerKey });
  };
  await state(0);
  for (const batch of [1, 2]) {
    const errors = await sendKeys(gateway, scenario, PER_KEY_STATE_KEYS, `state${batch}`);
    if (errors > 0) console.error(`per-key state: ${errors} errors among ${PER_KEY_STATE_KEYS} keys`);
    await state(batch * PER_KEY_STATE_KEYS);
  }
  await stopProcesses([gateway.child]);
  return states;
}

/** Every per-key query's modes, then the per-key state of the first, against one upstream. */
export async function measurePerKey(): Promise<{ figures: PerKeyFigures[]; state: PerKeyState[] }> {
  const upstream = await startUpstream();
  const scenarios = PER_KEY_SCENARIOS.map((name) => SCENARIOS.find((s) => s.name === name)!);
  const figures: PerKeyFigures[] = [];
  for (const scenario of scenarios) {
    await control(upstream.url, 'PUT', 'latency', { latencyMs: scenario.latencyMs, jitterMs: 0 });
    figures.push(...(await measureModes(scenario, upstream.url)));
    console.error(`measured per key: ${scenario.name}`);
  }
  const state = await measureState(scenarios[0]!, upstream.url);
  await stopProcesses([upstream.child]);
  return { figures, state };
}

/** The report's tables. */
export function perKeyRows({ figures, state }: { figures: PerKeyFigures[]; state: PerKeyState[] }): string[] {
  const rows = [
    '| scenario (posthog-2026) | keys | req/s | req/s per core | p50 ms | p99 ms | cpu µs/op | peak RSS MB | upstream calls/op | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...figures.map(
      (f) =>
        `| ${f.scenario} | ${f.keys} | ${f.requestsPerSecond.toFixed(0)} | ${f.requestsPerSecondPerCore.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.cpuMicrosPerOp.toFixed(0)} | ${f.peakRssMb.toFixed(0)} | ${f.upstreamCallsPerOp.toFixed(2)} | ${f.errors} |`,
    ),
    '',
    '| per-key state: scenario | distinct keys sent | heap after GC MB | RSS MB | heap growth per new key, bytes |',
    '|---|---:|---:|---:|---:|',
    ...state.map(
      (s) =>
        `| ${s.scenario} | ${s.keys} | ${s.heapUsedMb.toFixed(1)} | ${s.rssMb.toFixed(0)} | ${s.keys ? s.bytesPerKey.toFixed(0) : '–'} |`,
    ),
  ];
  return rows;
}
