// Writes to destination configs. Each is sent once (the upstream client never retries a write),
// reads the dialect's answer, and primes or forgets what this request holds, so a payload's
// fields cost no extra read (docs/upstream.md has what each dialect answers).
import { writeAppliedButUnread } from '../../errors/codes.ts';
import type { CallerUpstream } from '../../upstream/call.ts';
import { type ConfigWrite, configWriteBody } from '../../upstream/posthog/config-body.ts';
import { normalizeConfig } from '../../upstream/posthog/normalize.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { ConfigRecord } from '../../upstream/posthog/records.ts';
import type { CurrentProject } from '../current-project.ts';
import type { Configs } from './configs.ts';
import type { ConfigKey } from './listed.ts';

export interface PluginJob {
  type: string;
  payload?: unknown;
  operation?: string | null;
}

/** What queueing a job gives: the config, or its re-read (which alone may fail). */
export interface QueuedJob {
  destinationConfig: ConfigRecord | Promise<ConfigRecord>;
}

const isObject = (body: unknown) => body !== null && typeof body === 'object' && !Array.isArray(body);

export class ConfigWrites {
  constructor(
    private readonly upstream: CallerUpstream,
    private readonly configs: Configs,
    private readonly currentProject: CurrentProject,
  ) {}

  /** POST …/pipeline_destination_configs/: the new config as the upstream answered. */
  create(projectId: string, fields: ConfigWrite): Promise<ConfigRecord> {
    return this.write('POST', PATHS.configs(projectId), projectId, fields);
  }

  /** PATCH …/:id/ with only the fields given. */
  update(key: ConfigKey, fields: ConfigWrite): Promise<ConfigRecord> {
    return this.write('PATCH', PATHS.config(key.projectId, key.id), key.projectId, fields);
  }

  /**
   * DELETE …/:id/ (PostHog only disables it). Returns the numeric project id, known before the
   * write, so that nothing can fail after the upstream has acted.
   */
  async delete(key: ConfigKey): Promise<string> {
    const numericProjectId = await this.currentProject.numericId(key.projectId);
    await this.upstream.request({ method: 'DELETE', path: PATHS.config(key.projectId, key.id) });
    this.configs.forget(key);
    return numericProjectId;
  }

  /** POST …/:id/job/ with {"job": {type, payload, operation}} (what is given of them). */
  async runJob(key: ConfigKey, job: PluginJob): Promise<QueuedJob> {
    const given = Object.fromEntries(Object.entries(job).filter(([, v]) => v !== undefined && v !== null));
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.configJob(key.projectId, key.id),
      json: { job: given },
    });
    // PostHog answers 200 with an empty body; the interface document, with the config.
    if (isObject(answer.body)) {
      const destinationConfig = normalizeConfig(answer.body, key.projectId, 'write');
      this.configs.replace(destinationConfig);
      return { destinationConfig };
    }
    // The job is queued whatever happens next: a failed re-read must not read as a failed job.
    const destinationConfig = this.configs.reread(key).catch((error: unknown) => {
      throw writeAppliedButUnread(error, 'The job was queued');
    });
    return { destinationConfig };
  }

  /**
   * PATCH …/rearrange/ with {"orders": {id: order}}: the configs whose order the upstream
   * reports after the change. PostHog answers with the list of enabled configs; the interface
   * document, with one config.
   */
  async rearrange(projectId: string, orders: Record<string, number>): Promise<ConfigRecord[]> {
    const answer = await this.upstream.request({
      method: 'PATCH',
      path: PATHS.rearrange(projectId),
      json: { orders },
    });
    const records = Array.isArray(answer.body)
      ? answer.body.map((raw) => normalizeConfig(raw, projectId, 'rearrange'))
      : answer.body === null
        ? []
        : [normalizeConfig(answer.body, projectId, 'write')];
    for (const record of records) this.configs.replace(record);
    return records;
  }

  private async write(
    method: 'POST' | 'PATCH',
    path: string,
    projectId: string,
    fields: ConfigWrite,
  ): Promise<ConfigRecord> {
    const answer = await this.upstream.request({ method, path, ...configWriteBody(fields) });
    const record = normalizeConfig(answer.body, projectId, 'write');
    this.configs.replace(record);
    return record;
  }
}
