// Reading the environment (src/config/index.ts): defaults, every kind of value, and refusals that name
// the variable. The process-level refusal (exit 1 before listening) is in process.test.ts.
import { availableParallelism } from 'node:os';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ConfigError, loadConfig } from '../src/config/index.ts';
import { makeTestCertificate } from './support/test-certificate.ts';

describe('configuration from the environment', () => {
  it('has a default for every setting, and counts an empty variable as unset', () => {
    const config = loadConfig({ PORT: '', GRAPHIQL: '' });
    expect(config.port).toBe(4000);
    expect(config.host).toBe('0.0.0.0');
    expect(config.upstreamUrl).toBeNull();
    // No upstream and no demo asked for: main.ts refuses to start (process.test.ts).
    expect(config.demoUpstream).toBe(false);
    expect(config.graphiql).toBe(true);
    expect(config.limits.depth).toBe(12);
    expect(config.workers).toBe(1);
    expect(config.heapGrowingPercent).toBe(150);
    expect(config.metrics).toEqual({ enabled: true, token: null });
    expect(config.tracing).toBeNull();
    expect(config.corsOrigins).toBeNull();
    expect(Object.isFrozen(config) && Object.isFrozen(config.limits)).toBe(true);
  });

  it('reads integers, flags, choices, lists and URLs', () => {
    const config = loadConfig({
      DEMO_UPSTREAM: 'true',
      PORT: '8080',
      UPSTREAM_URL: 'https://eu.posthog.com/some/path',
      GRAPHIQL: '0',
      METRICS: 'false',
      LOG_LEVEL: 'warn',
      CORS_ORIGINS: ' https://a.example , https://b.example,',
      WORKERS: 'auto',
      HEAP_GROWING_PERCENT: '0',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      METRICS_TOKEN: 'a-token-of-16-chars',
    });
    expect(config.port).toBe(8080);
    expect(config.demoUpstream).toBe(true);
    expect(config.upstreamUrl).toBe('https://eu.posthog.com');
    expect(config.graphiql).toBe(false);
    expect(config.metrics).toEqual({ enabled: false, token: 'a-token-of-16-chars' });
    expect(config.logLevel).toBe('warn');
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.workers).toBe(availableParallelism());
    expect(config.heapGrowingPercent).toBe(0);
    expect(config.tracing).toEqual({
      endpoint: 'http://collector:4318/',
      serviceName: 'destinations-graphql-gateway',
      scheduleDelayMs: 5000,
    });
  });

  it('refuses bad values all at once, each with its variable and value', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        MAX_DEPTH: '0',
        UPSTREAM_URL: 'ftp://example.com',
        GRAPHIQL: 'yes',
        METRICS_TOKEN: 'short',
        REDIS_URL: 'http://cache:6379',
        WORKERS: '1.5',
        LOG_LEVEL: 'loud',
        REFERENCE_DIALECT: 'graphql',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      'invalid configuration: ' +
        [
          'METRICS_TOKEN="short": use at least 16 characters',
          'REDIS_URL="http://cache:6379": expected a URL starting redis:// or rediss://',
          'PORT="eighty": expected an integer from 0 to 65535',
          'UPSTREAM_URL="ftp://example.com": expected a URL starting http:// or https://',
          'REFERENCE_DIALECT="graphql": expected one of spec, posthog, posthog-2026',
          'GRAPHIQL="yes": expected one of true, false, 1, 0',
          'LOG_LEVEL="loud": expected one of fatal, error, warn, info, debug, trace, silent',
          'MAX_DEPTH="0": expected an integer from 1 to 100',
          'WORKERS="1.5": expected an integer from 1 to 256, or auto',
        ].join('; '),
    );
  });

  it('reads Redis as teams run it: a cluster, Sentinels, a CA, and messages without the password', () => {
    const certificate = makeTestCertificate();
    onTestFinished(() => certificate.remove());
    const ca = certificate.certFile;
    const sentinel = loadConfig({
      REDIS_URL: 'rediss://:s3cret@unused',
      REDIS_SENTINELS: '10.0.0.1:26379, sentinel-b:26380',
      REDIS_CA_FILE: ca,
    }).redis!;
    expect(sentinel.sentinels).toEqual({
      nodes: [
        { host: '10.0.0.1', port: 26379 },
        { host: 'sentinel-b', port: 26380 },
      ],
      name: 'mymaster',
      password: null,
    });
    expect(sentinel.ca).toContain('-----BEGIN CERTIFICATE-----');
    expect(sentinel.label).toBe('mymaster via Sentinels 10.0.0.1:26379,sentinel-b:26380');
    const cluster = loadConfig({ REDIS_URL: 'redis://:s3cret@node-0:7000', REDIS_CLUSTER: 'true' }).redis!;
    expect(cluster).toMatchObject({ cluster: true, sentinels: null, label: 'redis://node-0:7000 (cluster)' });
    expect(() =>
      loadConfig({
        REDIS_URL: 'redis://:s3cret@node-0:7000',
        REDIS_CLUSTER: 'true',
        REDIS_SENTINELS: 'a:1,b',
        REDIS_CA_FILE: ca,
      }),
    ).toThrow(
      'invalid configuration: REDIS_SENTINELS="a:1,b": expected host:port,host:port; ' +
        'REDIS_CA_FILE needs a rediss:// REDIS_URL (TLS)',
    );
    expect(() =>
      loadConfig({ REDIS_URL: 'redis://x:1', REDIS_CLUSTER: 'true', REDIS_SENTINELS: 'a:1' }),
    ).toThrow('REDIS_CLUSTER=true and REDIS_SENTINELS: choose one');
    expect(() => loadConfig({ REDIS_CLUSTER: 'true' })).toThrow('need REDIS_URL');
  });
});
