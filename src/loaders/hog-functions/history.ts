// A hog function's revisions and its review cycle, as this request reads and writes them (PostHog
// 2026, products/cdp/backend/api/hog_function.py@0019077): the revisions list (limit/offset,
// newest first) and one revision by version; the publish preview and confirm, discard_draft and
// restore_revision. Each write is sent once, and the function it answers replaces what this
// request held.

import type { CallerUpstream } from '../../upstream/call.ts';
import {
  type HogFunctionRevisionRecord,
  normalizeHogFunctionRevision,
} from '../../upstream/posthog/hog-function-history.ts';
import { normalizeHogFunction } from '../../upstream/posthog/hog-functions.ts';
import { PATHS } from '../../upstream/posthog/paths.ts';
import type { HogFunctionRecord } from '../../upstream/posthog/records.ts';
import { normalizeOffsetPage, type OffsetPage } from '../../upstream/wire/pages.ts';
import { jsonKey, type PerKeyLoader, perKeyLoader } from '../per-key-loader.ts';
import type { HogFunctionKey, HogFunctions } from './functions.ts';

export interface RevisionsPageKey extends HogFunctionKey {
  limit: number;
  offset: number;
}

export interface RevisionKey extends HogFunctionKey {
  version: number;
}

export interface PublishPreview {
  confirmToken: string;
  changedFields: string[];
  draftUpdatedAt: string;
}

export class HogFunctionHistory {
  private pageLoader?: PerKeyLoader<RevisionsPageKey, OffsetPage<HogFunctionRevisionRecord>, string>;
  private revisionLoader?: PerKeyLoader<RevisionKey, HogFunctionRevisionRecord, string>;

  constructor(
    private readonly upstream: CallerUpstream,
    private readonly hogFunctions: HogFunctions,
  ) {}

  /** GET …/:id/revisions/: a page of the function's revisions, newest first. */
  revisions(key: RevisionsPageKey): Promise<OffsetPage<HogFunctionRevisionRecord>> {
    this.pageLoader ??= perKeyLoader(async ({ projectId, uuid, limit, offset }: RevisionsPageKey) => {
      const path = PATHS.hogFunctionRevisions(projectId, uuid);
      const answer = await this.upstream.request({
        method: 'GET',
        path,
        query: { limit, offset },
        parseAnswer: false,
      });
      return normalizeOffsetPage(
        answer,
        (raw) => normalizeHogFunctionRevision(raw, projectId, uuid),
        offset,
        path,
      );
    }, jsonKey);
    return this.pageLoader.load(key);
  }

  /** GET …/:id/revisions/:version/: one revision with its config. */
  revision(key: RevisionKey): Promise<HogFunctionRevisionRecord> {
    this.revisionLoader ??= perKeyLoader(async ({ projectId, uuid, version }: RevisionKey) => {
      const answer = await this.upstream.request({
        method: 'GET',
        path: PATHS.hogFunctionRevision(projectId, uuid, version),
      });
      return normalizeHogFunctionRevision(answer.body, projectId, uuid);
    }, jsonKey);
    return this.revisionLoader.load(key);
  }

  /** POST …/:id/publish/ {"confirm": false}: what a publish would change, and its token; nothing changes. */
  async preview(key: HogFunctionKey): Promise<PublishPreview> {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.hogFunctionPublish(key.projectId, key.uuid),
      json: { confirm: false },
    });
    const body = (answer.body ?? {}) as Record<string, unknown>;
    return {
      confirmToken: String(body.confirm_token ?? ''),
      changedFields: Array.isArray(body.changed_fields) ? body.changed_fields.map(String) : [],
      draftUpdatedAt: String(body.draft_updated_at ?? ''),
    };
  }

  /** POST …/:id/publish/ {"confirm": true, "confirm_token"?}: the function as published. */
  async publish(key: HogFunctionKey, confirmToken: string | null): Promise<HogFunctionRecord> {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.hogFunctionPublish(key.projectId, key.uuid),
      json: confirmToken === null ? { confirm: true } : { confirm: true, confirm_token: confirmToken },
    });
    return this.keep((answer.body as { function?: unknown } | null)?.function, key);
  }

  /** POST …/:id/discard_draft/: the function without a draft (nothing staged: as it is). */
  async discard(key: HogFunctionKey): Promise<HogFunctionRecord> {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.hogFunctionDiscardDraft(key.projectId, key.uuid),
    });
    return this.keep(answer.body, key);
  }

  /** POST …/:id/revisions/:version/restore/: the function with the revision as its draft. */
  async restore(key: RevisionKey, overwrite: boolean | null): Promise<HogFunctionRecord> {
    const answer = await this.upstream.request({
      method: 'POST',
      path: PATHS.hogFunctionRevisionRestore(key.projectId, key.uuid, key.version),
      json: overwrite === null ? {} : { overwrite },
    });
    return this.keep(answer.body, key);
  }

  private keep(raw: unknown, key: HogFunctionKey): HogFunctionRecord {
    const record = normalizeHogFunction(raw, key.projectId);
    this.hogFunctions.replace(record);
    this.pageLoader = undefined;
    return record;
  }
}
