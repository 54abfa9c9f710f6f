// A leaking upstream: a real HTTP server on port 0 in front of the reference upstream (started
// with `leakSecrets`), passing every request on and planting secret values in clear in each
// JSON answer, wherever PostHog would have hidden or masked one: a secret input's `default` in an
// `inputs_schema`, a hog function's inputs no schema describes (and a function with no schema),
// a plugin config's masked values, a batch export's secret destination fields (top level and
// nested), and secret-bearing changes of HogFunction, BatchExport and PluginConfig activity
// entries. Every planted value is unique and recorded in `planted`, so a test can search the
// gateway's raw answers for each. `duplicateFirstOn` makes list answers at matching paths carry
// their first entry twice.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const PLUGIN_SECRET_MASK = '**************** POSTHOG SECRET FIELD ****************';

/** BatchExportDestination.secret_fields (products/batch_exports/backend/models/batch_export.py@05fe462). */
const BATCH_EXPORT_SECRETS: Record<string, string[]> = {
  S3: ['aws_access_key_id', 'aws_secret_access_key'],
  AwsS3: ['aws_access_key_id', 'aws_secret_access_key'],
  S3Compatible: ['aws_access_key_id', 'aws_secret_access_key'],
  Snowflake: ['user', 'password', 'private_key', 'private_key_passphrase'],
  Postgres: ['user', 'password'],
  Redshift: ['user', 'password', 'aws_access_key_id', 'aws_secret_access_key'],
  BigQuery: ['private_key', 'private_key_id', 'client_email', 'token_uri'],
  HTTP: ['token'],
};

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface LeakingUpstream {
  url: string;
  /** Every secret value planted in an answer so far, by what it stands for. */
  planted: Map<string, string>;
  duplicateFirstOn: RegExp | null;
  close(): Promise<void>;
}

export async function startLeakingUpstream(target: string): Promise<LeakingUpstream> {
  const planted = new Map<string, string>();
  let n = 0;
  const plant = (what: string) => {
    const value = `leak-${++n}-${what}`;
    planted.set(value, what);
    return value;
  };
  const leaks = new Leaks(plant);
  const state: LeakingUpstream = { url: '', planted, duplicateFirstOn: null, close: async () => {} };
  const server: Server = createServer(async (req, res) => {
    const body: Buffer[] = [];
    for await (const chunk of req) body.push(chunk as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k)),
    ) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      body: body.length > 0 ? Buffer.concat(body) : undefined,
    });
    let text = await answer.text();
    const type = answer.headers.get('content-type') ?? '';
    if (type.includes('json') && answer.ok && text) {
      const json = JSON.parse(text) as unknown;
      const path = (req.url ?? '').split('?')[0]!;
      if (state.duplicateFirstOn?.test(path) && isObject(json) && Array.isArray(json.results)) {
        json.results.splice(1, 0, structuredClone(json.results[0]));
      }
      leaks.walk(json);
      text = JSON.stringify(json);
    }
    res.writeHead(answer.status, type ? { 'content-type': type } : {});
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}

/** Plants secrets into an answer, in place, wherever its objects are of a kind that holds them. */
class Leaks {
  constructor(private readonly plant: (what: string) => string) {}

  walk(value: unknown): void {
    if (Array.isArray(value)) for (const item of value) this.walk(item);
    if (!isObject(value)) return;
    if (Array.isArray(value.inputs_schema)) this.hogSchema(value);
    if (typeof value.plugin === 'number' && isObject(value.config)) this.pluginConfig(value.config);
    if (isObject(value.destination) && typeof value.destination.type === 'string')
      this.destination(value.destination);
    if (typeof value.scope === 'string' && typeof value.activity === 'string') this.activity(value);
    for (const member of Object.values(value)) this.walk(member);
  }

  /** A hog function, mapping or template: secret defaults, and an input no schema describes. */
  private hogSchema(fn: Json): void {
    for (const field of fn.inputs_schema as unknown[]) {
      if (isObject(field) && field.secret === true) field.default = this.plant('hog-secret-default');
    }
    if (isObject(fn.inputs)) {
      fn.inputs.unlisted_input = { value: this.plant('hog-unlisted-input') };
      if (typeof fn.name === 'string' && fn.name.includes('Slack')) {
        delete fn.inputs_schema;
        fn.inputs.schemaless = { value: this.plant('hog-schemaless-input') };
      }
    }
  }

  private pluginConfig(config: Json): void {
    for (const [key, value] of Object.entries(config)) {
      if (value === PLUGIN_SECRET_MASK) config[key] = this.plant(`plugin-${key}`);
    }
  }

  private destination(destination: Json): void {
    const config = isObject(destination.config) ? destination.config : {};
    destination.config = config;
    const secrets = BATCH_EXPORT_SECRETS[destination.type as string] ?? [];
    const credentials = () => ({
      aws_access_key_id: this.plant('batch-export-nested-key-id'),
      aws_secret_access_key: this.plant('batch-export-nested-secret'),
    });
    for (const field of secrets) config[field] = this.plant(`batch-export-${field}`);
    config.copy_inputs = {
      s3_bucket: 'staging',
      authorization: credentials(),
      bucket_credentials: credentials(),
    };
    config.password = this.plant('batch-export-password');
    config.private_key = this.plant('batch-export-private-key');
    config.api_token = this.plant('batch-export-token');
  }

  private activity(entry: Json): void {
    const detail = isObject(entry.detail) ? entry.detail : {};
    entry.detail = detail;
    const changes = Array.isArray(detail.changes) ? detail.changes : [];
    detail.changes = changes;
    const change = (type: string, field: string | null, what: string) => ({
      type,
      action: 'changed',
      field,
      before: this.plant(`${what}-before`),
      after: this.plant(`${what}-after`),
    });
    if (entry.scope === 'HogFunction') {
      changes.push(change('HogFunction', 'encrypted_inputs', 'activity-hog-encrypted'));
      changes.push({
        ...change('HogFunction', 'inputs', 'activity-hog-inputs'),
        after: { api_key: { value: this.plant('activity-hog-inputs-nested') } },
      });
    }
    if (entry.scope === 'BatchExport') {
      const destination = () => ({
        type: 'Redshift',
        config: {
          database: 'dev',
          password: this.plant('activity-batch-export-password'),
          copy_inputs: {
            authorization: { aws_secret_access_key: this.plant('activity-batch-export-nested') },
          },
        },
      });
      changes.push({
        type: 'BatchExport',
        action: 'changed',
        field: 'destination',
        before: destination(),
        after: destination(),
      });
      changes.push(change('BatchExport', 'config', 'activity-batch-export-config'));
    }
    if (entry.scope === 'PluginConfig') {
      changes.push(change('PluginConfig', null, 'activity-plugin-secret'));
      changes.push(change('Plugin', 'webhookSecret', 'activity-plugin-named'));
    }
  }
}
