// Writes to hog functions (PostHog 2026). Each is sent once and primes or forgets what this
// request holds. Delete is PATCH {"deleted": true}: PostHog refuses DELETE to personal API keys.
import type { CallerUpstream } from '../../upstream/call.ts';
import { normalizeHogFunction, normalizeHogFunctionLog } from '../../upstream/posthog/hog-functions.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import {
  type HogFunctionLogRecord,
  type HogFunctionRecord,
  MAPPINGS_AS_STORED,
} from '../../upstream/posthog/records.ts';
import type { CurrentProject } from '../current-project.ts';
import type { HogFunctionKey, HogFunctions } from './functions.ts';

/** The writable fields, in PostHog's names; a field left out is not sent. */
export interface HogFunctionWrite {
  type?: string | null;
  template_id?: string | null;
  name?: string | null;
  description?: string | null;
  enabled?: boolean | null;
  hog?: string | null;
  inputs_schema?: unknown;
  inputs?: unknown;
  filters?: unknown;
  masking?: unknown;
  mappings?: unknown;
  /** PostHog's optimistic-concurrency guard: the updated_at the caller last read (updates only). */
  base_updated_at?: string;
}

export interface HogFunctionTest {
  configuration?: unknown;
  globals?: unknown;
  mockAsyncFunctions?: boolean | null;
}

export interface HogFunctionTestResult {
  status: string;
  result: unknown;
  errors: string[];
  logs: HogFunctionLogRecord[];
}

/**
 * A stored function as a test run's `configuration`: the fields PostHog's own editor sends
 * (frontend hogFunctionConfigurationLogic), inputs already redacted by the normaliser.
 */
function storedConfiguration(fn: HogFunctionRecord): Record<string, unknown> {
  return {
    type: fn.type,
    name: fn.name,
    description: fn.description,
    enabled: fn.enabled,
    hog: fn.hog,
    inputs_schema: fn.inputsSchema,
    inputs: fn.inputs,
    filters: fn.filters,
    masking: fn.masking,
    // Secret mapping inputs as stored: PostHog cannot resolve a mapping's {"secret": true}.
    mappings: fn[MAPPINGS_AS_STORED] ?? fn.mappings,
    ...(fn.template ? { template_id: fn.template.id } : {}),
  };
}

const present = (fields: HogFunctionWrite) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));

export class HogFunctionWrites {
  constructor(
    private readonly upstream: CallerUpstream,
    private readonly hogFunctions: HogFunctions,
    private readonly currentProject: CurrentProject,
  ) {}

  /** POST …/hog_functions/: from a template (`template_id`) or from code (`hog`). */
  async create(projectId: string, fields: HogFunctionWrite): Promise<HogFunctionRecord> {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.hogFunctions(projectId),
      json: present(fields),
    });
    return this.keep(normalizeHogFunction(answer.body, projectId));
  }

  /** PATCH …/:id/ with only the fields given; a secret input sent as {"secret": true} keeps its value. */
  async update(key: HogFunctionKey, fields: HogFunctionWrite): Promise<HogFunctionRecord> {
    const answer = await this.upstream.request({
      method: 'PATCH',
      path: PATHS.hogFunction(key.projectId, key.uuid),
      json: present(fields),
    });
    return this.keep(normalizeHogFunction(answer.body, key.projectId));
  }

  /** PATCH …/:id/ {"deleted": true}. Returns the numeric project id, known before the write. */
  async delete(key: HogFunctionKey): Promise<string> {
    const numericProjectId = await this.currentProject.numericId(key.projectId);
    await this.upstream.request({
      method: 'PATCH',
      path: PATHS.hogFunction(key.projectId, key.uuid),
      json: { deleted: true },
    });
    this.hogFunctions.forget(key);
    return numericProjectId;
  }

  /**
   * POST …/:id/invocations/ (`new` for a function not saved): a test run; nothing is stored.
   * PostHog answers 400 "Required unless use_draft is true." to a body without `configuration`
   * (products/cdp/backend/api/hog_function.py, `invocations`), so a saved function tested without
   * one is read first and its stored configuration sent, secret inputs as {"secret": true}, which
   * PostHog resolves against the stored function.
   */
  async test(projectId: string, uuid: string | null, run: HogFunctionTest): Promise<HogFunctionTestResult> {
    const given = run.configuration ?? undefined;
    const configuration =
      given === undefined && uuid !== null
        ? storedConfiguration(await this.hogFunctions.load({ projectId, uuid }))
        : given;
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.hogFunctionInvocations(projectId, uuid),
      json: {
        ...(configuration === undefined ? {} : { configuration }),
        globals: run.globals ?? {},
        mock_async_functions: run.mockAsyncFunctions ?? true,
      },
    });
    const body = (answer.body ?? {}) as {
      status?: unknown;
      result?: unknown;
      errors?: unknown;
      logs?: unknown;
    };
    return {
      status: typeof body.status === 'string' ? body.status : 'error',
      result: body.result ?? null,
      errors: Array.isArray(body.errors) ? body.errors.map(String) : [],
      logs: Array.isArray(body.logs) ? body.logs.map(normalizeHogFunctionLog) : [],
    };
  }

  /** PATCH …/rearrange/ {"orders": {uuid: n}}: every function of the type, as the upstream orders them. */
  async rearrange(projectId: string, orders: Record<string, number>): Promise<HogFunctionRecord[]> {
    const answer = await this.upstream.request({
      method: 'PATCH',
      path: PATHS.hogFunctionsRearrange(projectId),
      json: { orders },
    });
    const list = Array.isArray(answer.body) ? answer.body : [];
    return list.map((raw) => this.keep(normalizeHogFunction(raw, projectId)));
  }

  private keep(record: HogFunctionRecord): HogFunctionRecord {
    this.hogFunctions.replace(record);
    return record;
  }
}
