// A Redis that speaks TLS only, its certificate self-signed: with `rediss://` and REDIS_CA_FILE
// naming that certificate the gateway connects and shares through it (its budget counted there);
// without REDIS_CA_FILE the certificate is not trusted and start-up fails naming REDIS_URL, with
// no password in the message.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { type ReferenceUpstream, startReferenceUpstream } from 'posthog-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, startGatewayProcess } from '../../support/redis-server.ts';
import { startTlsRedis } from '../../support/redis-topologies.ts';
import { makeTestCertificate, type TestCertificate } from '../../support/test-certificate.ts';
import { until } from '../../support/wait.ts';

const PASSWORD = 's3cret-tls';
const ONE_CONFIG = '{ project(projectId: "1") { destinationConfig(databaseId: 3) { name } } }';

describe('Redis over TLS', () => {
  let certificate: TestCertificate;
  let redis: { url: string; stop(): Promise<void> };
  let upstream: ReferenceUpstream;
  let gateway: GatewayProcess | undefined;
  let port: string;

  beforeAll(async () => {
    certificate = makeTestCertificate();
    [redis, upstream] = await Promise.all([
      startTlsRedis(certificate.cert, certificate.key, PASSWORD),
      startReferenceUpstream({ dialect: 'spec' }),
    ]);
    port = new URL(redis.url).port;
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all([redis?.stop(), upstream?.close()]);
    certificate?.remove();
  });

  it('connects with rediss:// and REDIS_CA_FILE, and counts the budget in that Redis', async () => {
    gateway = await startGatewayProcess(upstream.url, {
      REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${port}`,
      REDIS_CA_FILE: certificate.certFile,
    });
    const answer = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer phx_full' },
      body: JSON.stringify({ query: ONE_CONFIG }),
    });
    expect(((await answer.json()) as { data: unknown }).data).toMatchObject({
      project: { destinationConfig: { name: expect.any(String) } },
    });
    const health = await fetch(`${gateway.origin}/health`);
    expect(await health.json()).toEqual({ status: 'ok', degraded: [] });
    const client = new Redis(`rediss://:${PASSWORD}@127.0.0.1:${port}`, { tls: { ca: certificate.cert } });
    try {
      await until(async () => (await client.keys('gateway:{budget}:*')).length > 0, 'budget keys in Redis', {
        withinMs: 30_000,
        everyMs: 100,
      });
      expect(await client.zcard('gateway:{budget}:keys')).toBe(1);
      expect(await client.zcard('gateway:processes')).toBe(1);
    } finally {
      client.disconnect();
    }
  }, 60_000);

  it('refuses to start without REDIS_CA_FILE, naming REDIS_URL and no password', async () => {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        UPSTREAM_URL: upstream.url,
        REDIS_URL: `rediss://:${PASSWORD}@127.0.0.1:${port}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk) => (output += chunk));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(output).toContain(`REDIS_URL: Redis at rediss://127.0.0.1:${port} does not answer`);
    expect(output).not.toContain(PASSWORD);
  }, 60_000);
});
