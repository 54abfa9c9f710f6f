// The deployment files of deploy/ and docs/deploying.md hold to the gateway they deploy: every
// variable they set is a setting loadConfig reads (and its value passes), every probe path is an
// endpoint a started gateway answers 200, node runs as npm start runs it, and the time allowed to
// stop covers the drain.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/index.ts';
import { TRACE_FLUSH_MS } from '../../src/gateway.ts';
import { type Harness, startHarness } from '../support/harness.ts';
import { ROOT } from './markdown-blocks.ts';
import { parseYamlDocuments } from './yaml-subset.ts';

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
/** Read by node, graphql-js and yoga rather than by loadConfig. */
const NOT_CONFIG = new Set(['NODE_ENV']);
/** What a secret referenced by a manifest holds, to check the settings it fills. */
const SECRET_SAMPLES: Record<string, string> = {
  REDIS_URL: 'redis://:password@redis:6379',
  METRICS_TOKEN: 'a-token-of-at-least-16-characters',
};
/** How node is started in production: npm start's own command line. */
const NODE_COMMAND = ['node', '--no-memory-reducer', 'dist/main.js'];

/** The variables loadConfig reads given `env` (a setting read only beside another is read then). */
function settingsRead(env: Record<string, string>): Set<string> {
  const names = new Set<string>();
  const watched = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') names.add(name);
      return target[name as string];
    },
  });
  loadConfig(watched);
  return names;
}

function expectSettings(env: Record<string, string>) {
  const read = settingsRead(env);
  for (const name of Object.keys(env)) {
    if (!NOT_CONFIG.has(name)) expect(read, `${name} is a setting src/config/index.ts reads`).toContain(name);
  }
  expect(() => loadConfig(env), 'every value passes').not.toThrow();
}

// biome-ignore lint/suspicious/noExplicitAny: manifests are read by path.
type Manifest = any;
const manifests: Manifest[] = parseYamlDocuments(read('deploy/kubernetes.yaml'));
const ofKind = (kind: string) => {
  const found = manifests.filter((manifest) => manifest.kind === kind);
  expect(found, kind).toHaveLength(1);
  return found[0];
};

describe('deploy/kubernetes.yaml', () => {
  const deployment = ofKind('Deployment');
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];
  const env: Record<string, string> = Object.fromEntries(
    container.env.map((variable: Manifest) => {
      if (variable.value !== undefined) return [variable.name, String(variable.value)];
      expect(SECRET_SAMPLES, `a sample value of ${variable.name} for this test`).toHaveProperty(
        variable.name,
      );
      return [variable.name, SECRET_SAMPLES[variable.name]];
    }),
  );

  it('sets only settings the gateway reads, each to a value it accepts', () => {
    expectSettings(env);
  });

  it('runs node as PID 1 as npm start does', () => {
    expect(container.command).toEqual(NODE_COMMAND);
    expect(JSON.parse(read('package.json')).scripts.start).toContain(NODE_COMMAND.join(' '));
    expect(env.NODE_ENV).toBe('production');
  });

  it('probes the port the gateway listens on', () => {
    const port = container.ports.find((p: Manifest) => p.containerPort === Number(env.PORT ?? 4000));
    expect(port, 'a containerPort equal to PORT').toBeDefined();
    for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
      expect([port.name, port.containerPort], probe).toContain(container[probe].httpGet.port);
    }
  });

  it('gives the drain its time before SIGKILL: the preStop wait, SHUTDOWN_GRACE_MS and the trace flush', () => {
    const preStop = container.lifecycle?.preStop?.exec?.command ?? [];
    const waitMs = preStop[0] === 'sleep' ? Number(preStop[1]) * 1000 : 0;
    const needed = waitMs + Number(env.SHUTDOWN_GRACE_MS ?? 10_000) + TRACE_FLUSH_MS;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(needed);
    expect(pod.terminationGracePeriodSeconds * 1000, 'not far past it').toBeLessThanOrEqual(needed + 10_000);
  });

  it("has a PodDisruptionBudget and a Service for the Deployment's pods", () => {
    const labels = deployment.spec.template.metadata.labels;
    const budget = ofKind('PodDisruptionBudget');
    expect(budget.spec.selector.matchLabels).toEqual(labels);
    expect(budget.spec.maxUnavailable ?? deployment.spec.replicas - budget.spec.minAvailable).toBeLessThan(
      deployment.spec.replicas,
    );
    const service = ofKind('Service');
    expect(service.spec.selector).toEqual(labels);
    expect(container.ports.map((p: Manifest) => p.name)).toContain(service.spec.ports[0].targetPort);
  });

  describe('its probe paths, against a started gateway', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ dialect: 'posthog-2026' });
    });
    afterAll(() => h.close());

    for (const probe of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
      it(`${probe} ${container[probe].httpGet.path} answers 200`, async () => {
        const response = await fetch(new URL(container[probe].httpGet.path, h.url));
        expect(response.status).toBe(200);
      });
    }
  });
});

describe('deploy/gateway.service', () => {
  const unit = read('deploy/gateway.service').split('\n');
  const values = (name: string) =>
    unit.filter((line) => line.startsWith(`${name}=`)).map((line) => line.slice(name.length + 1));
  const env: Record<string, string> = Object.fromEntries(
    values('Environment').map((assignment) => {
      const eq = assignment.indexOf('=');
      return [assignment.slice(0, eq), assignment.slice(eq + 1)];
    }),
  );

  it('sets only settings the gateway reads, each to a value it accepts', () => {
    expectSettings(env);
  });

  it('runs node as npm start does, and stops it the way the drain needs', () => {
    const [execStart] = values('ExecStart');
    expect(execStart!.split(' ').slice(1)).toEqual(NODE_COMMAND.slice(1));
    expect(values('KillSignal')).toEqual(['SIGTERM']);
    // SIGTERM to the primary alone: it drains its workers.
    expect(values('KillMode')).toEqual(['mixed']);
    const [timeout] = values('TimeoutStopSec');
    expect(Number(timeout) * 1000).toBeGreaterThanOrEqual(
      Number(env.SHUTDOWN_GRACE_MS ?? 10_000) + TRACE_FLUSH_MS,
    );
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = read('deploy/Dockerfile');

  it('builds, prunes, and runs node as PID 1 in production mode', () => {
    expect(dockerfile).toContain('npm run build && npm prune --omit=dev');
    expect(dockerfile).toContain('ENV NODE_ENV=production');
    expect(dockerfile).toContain(`CMD ${JSON.stringify(NODE_COMMAND).replaceAll(',', ', ')}`);
  });

  it('copies the gateway only: the emulator package stays out of the image', () => {
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(' '));
    expect(copied).toEqual([
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'src',
    ]);
  });
});
