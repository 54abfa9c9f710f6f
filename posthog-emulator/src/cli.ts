// `npm run upstream -- [--port N] [--host H] [--dialect spec|posthog|posthog-2026] [--public-base URL]
//   [--latency MS] [--jitter MS] [--rate-limit PER_MINUTE] [--no-legacy-routes]
//   [--any-key-prefix PREFIX]`: the reference upstream on its own.
import { parseArgs } from 'node:util';
import { ALL_DIALECTS, type Dialect } from './dialect.ts';
import { startReferenceUpstream } from './server.ts';

function fail(message: string): never {
  console.error(`upstream: ${message}`);
  process.exit(2);
}

function numberFlag(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    fail(`--${name} must be a non-negative number, got ${JSON.stringify(value)}`);
  return n;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8010' },
    host: { type: 'string', default: '127.0.0.1' },
    dialect: { type: 'string', default: 'spec' },
    'public-base': { type: 'string' },
    latency: { type: 'string' },
    jitter: { type: 'string' },
    'rate-limit': { type: 'string' },
    'no-legacy-routes': { type: 'boolean', default: false },
    'any-key-prefix': { type: 'string' },
  },
});

if (!ALL_DIALECTS.includes(values.dialect as Dialect))
  fail(`--dialect must be one of ${ALL_DIALECTS.join(', ')}`);
const publicBase = values['public-base'];
if (publicBase !== undefined && !URL.canParse(publicBase)) fail('--public-base must be an absolute URL');

const upstream = await startReferenceUpstream({
  port: numberFlag('port', values.port),
  host: values.host,
  dialect: values.dialect as Dialect,
  publicBase: publicBase?.replace(/\/$/, ''),
  latencyMs: numberFlag('latency', values.latency),
  jitterMs: numberFlag('jitter', values.jitter),
  rateLimitPerMinute: numberFlag('rate-limit', values['rate-limit']) ?? null,
  legacyRoutes: !values['no-legacy-routes'],
  anyKeyPrefix: values['any-key-prefix'],
});

console.log(`reference upstream (${upstream.dialect} dialect) listening on ${upstream.url}`);
const { store } = upstream;
for (const project of store.projects.values()) {
  const configs = [...store.configs.values()].filter((c) => c.projectId === project.id);
  const entries = store.activity.filter((e) => e.projectId === project.id).length;
  const deleted = configs.filter((c) => c.deleted).length;
  console.log(
    `  project ${project.id} "${project.name}": ${configs.length - deleted} configs (+${deleted} soft-deleted), ${entries} activity entries`,
  );
}
console.log('demo keys (Authorization: Bearer <key>):');
for (const key of store.keys.values()) {
  const scopes = key.scopes === null ? 'unscoped legacy key' : key.scopes.join(', ');
  console.log(`  ${key.value.padEnd(14)} ${scopes}; @current = project ${key.currentProjectId}`);
}
if (store.anyKeyPrefix) console.log(`  ${store.anyKeyPrefix}<n>: any such key, with every scope`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void upstream.close().then(() => process.exit(0));
  });
}
