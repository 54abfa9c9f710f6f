// The hog functions the 2026 dialect starts with: templates (PostHog's and, for each plugin, the
// `plugin-<slug>` template its migrated configs use), and in project 1 a function of every type,
// transformations in an execution order, `legacy_destination`s mirroring some plugin configs
// (enabled ones supersede those configs), logs, and the activity their creation left.
import { GATED_TEMPLATES, seedTeamFlags } from './flag-gated-templates.ts';
import { validateInputs } from './inputs.ts';
import { legacyInputsSchema, legacyTemplateId, migratedFunction } from './legacy-destinations.ts';
import type {
  ActivityChange,
  HogFunction,
  HogFunctionLog,
  HogFunctionTemplate,
  HogInputSchema,
} from '../model.ts';
import { PLUGINS, seededUuid } from '../seed.ts';
import type { Store } from '../store.ts';

// As InputsSchemaItemSerializer stores them: type, key, label, required, secret, hidden.
const webhookInputs: HogInputSchema[] = [
  { type: 'string', key: 'url', label: 'Webhook URL', required: true, secret: false, hidden: false },
  { type: 'dictionary', key: 'headers', label: 'Headers', required: false, secret: false, hidden: false },
];
const slackInputs: HogInputSchema[] = [
  {
    type: 'string',
    key: 'slack_workspace',
    label: 'Slack bot token',
    required: true,
    secret: true,
    hidden: false,
  },
  { type: 'string', key: 'channel', label: 'Channel', required: true, secret: false, hidden: false },
];

const template = (
  id: string,
  name: string,
  type: string,
  inputs_schema: HogInputSchema[],
  hog: string,
): HogFunctionTemplate => ({
  id,
  name,
  description: `${name}, as PostHog's template gallery describes it.`,
  type,
  status: 'stable',
  category: [type === 'transformation' ? 'Custom' : 'Destinations'],
  free: type !== 'destination',
  icon_url: `/static/services/${id}.png`,
  hog,
  inputs_schema,
});

export { legacyTemplateId };

export const HOG_TEMPLATES: readonly HogFunctionTemplate[] = [
  template(
    'template-webhook',
    'HTTP Webhook',
    'destination',
    webhookInputs,
    "fetch(inputs.url, {'body': event})",
  ),
  template(
    'template-slack',
    'Slack',
    'destination',
    slackInputs,
    "fetch('https://slack.com/api/chat.postMessage')",
  ),
  template('template-site-banner', 'Notification bar', 'site_app', [], 'export function onLoad() {}'),
  template('template-geoip', 'GeoIP', 'transformation', [], 'return event'),
  template(
    'template-source-webhook',
    'Incoming webhook',
    'source_webhook',
    [],
    'postHogCapture(request.body)',
  ),
  ...GATED_TEMPLATES,
  // A legacy plugin's template is deprecated, its code "return event" in JavaScript (PostHog's
  // plugin-server/src/cdp/legacy-plugins/*/template.ts).
  // Its inputs are the plugin's config fields (legacy-destinations.ts).
  ...PLUGINS.map((plugin) => ({
    ...template(
      legacyTemplateId(plugin),
      plugin.name,
      'destination',
      legacyInputsSchema(plugin),
      'return event',
    ),
    status: 'deprecated',
  })),
];

/** What project 1 holds: name, type, template, enabled, execution order. */
const SEEDED: [string, string, string | null, boolean, number | null][] = [
  ['Webhook to ops', 'destination', 'template-webhook', true, null],
  ['Slack #alerts', 'destination', 'template-slack', true, null],
  ['Banner', 'site_destination', null, true, null],
  ['Internal alert', 'internal_destination', 'template-webhook', true, null],
  ['Stripe webhook', 'source_webhook', 'template-source-webhook', true, null],
  ['Notification bar', 'site_app', 'template-site-banner', false, null],
  ['GeoIP', 'transformation', 'template-geoip', true, 1],
  ['Drop bots', 'transformation', null, true, 2],
  ['Log transformations', 'transformation_log', null, true, null],
];

/**
 * Project 1's migrated plugin configs (renamed since, as a user may): the plugin, whether the
 * function is enabled. Enabled ones supersede the configs of their plugin; a disabled one does not.
 */
const MIGRATED: [string, number, boolean][] = [
  ['Webhook Destination (migrated)', 1, true],
  ['S3 Export (migrated)', 2, true],
  ['BigQuery Export (migrated, off)', 3, false],
];

/** The migrated rows, from the project's first config of each plugin (legacy-destinations.ts). */
function seedMigrated(store: Store, projectId: number, startMicros: number): HogFunction[] {
  return MIGRATED.map(([name, pluginId, enabled], index) => {
    const plugin = store.plugins.get(pluginId)!;
    const config = [...store.configs.values()].find(
      (c) => c.projectId === projectId && c.plugin === pluginId,
    );
    return migratedFunction({
      id: seededUuid(7, SEEDED.length + index + 1),
      projectId,
      plugin,
      template: HOG_TEMPLATES.find((t) => t.id === legacyTemplateId(plugin))!,
      config: config?.config ?? {},
      name,
      enabled,
      atMicros: startMicros + (SEEDED.length + index) * 3_600_000_000,
    });
  });
}

export function seedHogFunctions(projectId: number, startMicros: number, createdBy: number): HogFunction[] {
  return SEEDED.map(([name, type, templateId, enabled, executionOrder], index) => {
    const found = HOG_TEMPLATES.find((t) => t.id === templateId);
    const micros = startMicros + index * 3_600_000_000;
    const given: Record<string, { value: unknown }> = {};
    for (const input of found?.inputs_schema ?? [])
      given[input.key] = {
        value: input.secret
          ? `secret-${index}-${input.key}`
          : input.type === 'dictionary'
            ? { 'X-Seed': `value-${index}` }
            : `value-${index}`,
      };
    const validated = validateInputs(found?.inputs_schema ?? [], given, {}, type);
    const inputs = 'inputs' in validated ? validated.inputs : {};
    return {
      id: seededUuid(7, index + 1),
      projectId,
      type,
      name,
      description: found?.description ?? '',
      createdAtMicros: micros,
      updatedAtMicros: micros,
      createdBy,
      enabled,
      deleted: false,
      hog: found?.hog ?? 'return event',
      inputsSchema: found?.inputs_schema ?? [],
      inputs,
      filters: { events: [{ id: '$pageview', type: 'events' }] },
      masking: null,
      mappings: type === 'destination' && templateId === 'template-webhook' ? seededMappings(index) : null,
      iconUrl: found?.icon_url ?? null,
      templateId,
      statusState: enabled ? 1 : 3,
      executionOrder,
      version: 1,
    };
  });
}

const LEVELS: HogFunctionLog['level'][] = ['DEBUG', 'INFO', 'INFO', 'WARN', 'ERROR'];

/** A few logs a function, a minute apart, newest last. */
export function seedLogs(fn: HogFunction, count: number, startMicros: number): HogFunctionLog[] {
  return Array.from({ length: count }, (_, i) => ({
    functionId: fn.id,
    instanceId: seededUuid(8, i + 1),
    timestampMicros: startMicros + i * 60_000_000,
    level: LEVELS[i % LEVELS.length]!,
    message: `${fn.name}: invocation ${i + 1} ${LEVELS[i % LEVELS.length] === 'ERROR' ? 'failed' : 'done'}`,
  }));
}

/** One mapping with a secret input of its own (stored, and answered, as given: see hog-function-view.ts). */
function seededMappings(index: number) {
  const schema = [
    { type: 'string', key: 'api_key', label: 'API key', required: true, secret: true, hidden: false },
  ];
  const validated = validateInputs(
    schema,
    { api_key: { value: `mapping-secret-${index}` } },
    {},
    'destination',
  );
  return [
    { name: 'Pageviews', inputs_schema: schema, inputs: 'inputs' in validated ? validated.inputs : {} },
  ];
}

/** products/cdp/backend/models/hog_functions/utils.py, humanize_hog_function_type. */
export const humanisedType = (type: string | null) =>
  !type ? 'hog function' : type === 'source_webhook' ? 'source' : type.replaceAll('_', ' ');

/** Project 1's hog functions, their logs and the activity their creation left. */
export function seedHogWorld(store: Store, startMicros: number): void {
  seedTeamFlags(store);
  const seeded = seedHogFunctions(1, startMicros + 500_013, 1);
  for (const fn of [...seeded, ...seedMigrated(store, 1, startMicros + 500_013)]) {
    store.hogFunctions.set(fn.id, fn);
    // The legacy consumer discards a legacy destination's logs (PostHog PR #97648).
    if (fn.type !== 'legacy_destination')
      store.hogLogs.push(...seedLogs(fn, 12, fn.createdAtMicros + 60_000_000));
    logHogActivity(store, fn.createdBy, fn, 'created', null, fn.createdAtMicros);
  }
}

/** The activity entry a write to a hog function leaves (scope HogFunction, item_id its UUID). */
export function logHogActivity(
  store: Store,
  userId: number | null,
  fn: HogFunction,
  activity: string,
  changes: ActivityChange[] | null,
  at: number,
): void {
  store.pushActivity({
    projectId: fn.projectId,
    userId,
    is_system: false,
    activity,
    scope: 'HogFunction',
    item_id: fn.id,
    // Detail(name=..., type=humanize_hog_function_type(...), changes=...), the rest null.
    detail: {
      name: fn.name,
      short_id: null,
      type: humanisedType(fn.type),
      changes,
      trigger: null,
      context: null,
    },
    createdAtMicros: at,
  });
}
