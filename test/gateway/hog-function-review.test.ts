// A hog function's review cycle through the gateway (issue 64), against the reference upstream's
// posthog-2026 dialect: a draft staged by its control route, read as HogFunction.draft (secrets
// masked); preview, publish with and without a token, a stale token; restore with and without
// overwrite; discard twice; updateHogFunction's baseUpdatedAt. Writes over HTTP and WebSocket;
// revisions read with their upstream call counts.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { subscribe } from '../support/clients.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const WEBHOOK = '018f0a5e-0007-7000-8000-000000000001';
const SLACK = '018f0a5e-0007-7000-8000-000000000002';
const FUNCTIONS = '/api/projects/1/hog_functions/';
const gid = (uuid: string) => Buffer.from(`HogFunction:1:${uuid}`).toString('base64');

const PREVIEW =
  'mutation($id: ID!) { previewHogFunctionPublish(input: {id: $id}) { confirmToken changedFields draftUpdatedAt hogFunction { draft { hog } } } }';
const PUBLISH =
  'mutation($id: ID!, $token: String) { publishHogFunctionDraft(input: {id: $id, confirmToken: $token}) { hogFunction { hog version draft { hog } } } }';
const RESTORE =
  'mutation($id: ID!, $v: Int!, $o: Boolean) { restoreHogFunctionRevision(input: {id: $id, version: $v, overwrite: $o}) { hogFunction { hog draft { hog updatedAt } } } }';
const DISCARD =
  'mutation($id: ID!) { discardHogFunctionDraft(input: {id: $id}) { hogFunction { draft { hog } } } }';

for (const transport of ['http', 'ws'] as const) {
  describe(`hog function review cycle over ${transport}`, () => {
    let h: Harness;
    // biome-ignore lint/suspicious/noExplicitAny: answers are inspected field by field.
    const send = async (query: string, variables: Record<string, unknown>): Promise<any> => {
      if (transport === 'http') return (await h.gql(query, variables)).body;
      const stream = subscribe(h, 'ws', 'phx_full', query, variables);
      try {
        return (await stream.next()).value;
      } finally {
        stream.dispose();
      }
    };
    const stage = (uuid: string, fields: Record<string, unknown>) =>
      fetch(`${h.upstream.url}/__control/hog-function-draft`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: uuid, fields }),
      });
    beforeAll(async () => {
      h = await startHarness({ dialect: 'posthog-2026' });
    });
    afterAll(() => h.close());
    beforeEach(() => h.reset());

    it('previews and publishes an enabled function only with a token that still matches', async () => {
      await stage(WEBHOOK, { hog: 'return null' });
      const preview = (await send(PREVIEW, { id: gid(WEBHOOK) })).data.previewHogFunctionPublish;
      expect([preview.changedFields, preview.hogFunction.draft.hog]).toEqual([['hog'], 'return null']);
      const without = await send(PUBLISH, { id: gid(WEBHOOK) });
      expect(without.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'confirm_token' });
      await stage(WEBHOOK, { hog: 'return event' });
      const stale = await send(PUBLISH, { id: gid(WEBHOOK), token: preview.confirmToken });
      expect(stale.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'STALE_UPDATE' });
      expect(stale.errors[0].message).toContain('previewHogFunctionPublish');
      expect(h.upstreamCalls({ method: 'POST', path: `${FUNCTIONS}${WEBHOOK}/publish/` })).toHaveLength(3);
      const fresh = (await send(PREVIEW, { id: gid(WEBHOOK) })).data.previewHogFunctionPublish;
      const published = (await send(PUBLISH, { id: gid(WEBHOOK), token: fresh.confirmToken })).data;
      expect(published.publishHogFunctionDraft.hogFunction).toMatchObject({
        hog: 'return event',
        draft: null,
      });
    });

    it('publishes a disabled function without a token, its staged secret never in the answer', async () => {
      await h.gql(
        `mutation { updateHogFunction(input: {id: "${gid(SLACK)}", enabled: false}) { hogFunction { enabled } } }`,
      );
      await stage(SLACK, {
        inputs: { slack_workspace: { value: 'xoxb-staged-secret' }, channel: { value: '#ops' } },
      });
      const read = await h.gql(
        `{ node(id: "${gid(SLACK)}") { ... on HogFunction { draft { inputs updatedAt } } } }`,
      );
      expect(read.body.data.node.draft.inputs.slack_workspace).toEqual({ secret: true });
      const published = await send(PUBLISH, { id: gid(SLACK) });
      expect(JSON.stringify(published)).not.toContain('xoxb-staged-secret');
      expect(published.data.publishHogFunctionDraft.hogFunction.draft).toBeNull();
    });

    it('restores a revision into the draft, over a staged one only with overwrite, and discards twice', async () => {
      await h.gql(
        `mutation { updateHogFunction(input: {id: "${gid(WEBHOOK)}", hog: "return 1"}) { hogFunction { version } } }`,
      );
      const revisions = await h.gql(
        `{ node(id: "${gid(WEBHOOK)}") { ... on HogFunction { version revisions(first: 5) { totalCount edges { node { version hog createdBy { email } } } } } } }`,
      );
      const fn = revisions.body.data.node;
      const oldest = fn.revisions.edges.at(-1).node;
      expect(fn.revisions.edges[0].node).toMatchObject({ version: fn.version, hog: 'return 1' });
      // The function, the list, and each listed revision's config read once.
      expect(h.upstreamCalls({ method: 'GET' })).toHaveLength(2 + fn.revisions.totalCount);
      const restored = (await send(RESTORE, { id: gid(WEBHOOK), v: oldest.version })).data;
      expect(restored.restoreHogFunctionRevision.hogFunction).toMatchObject({
        hog: 'return 1',
        draft: { hog: oldest.hog },
      });
      const refused = await send(RESTORE, { id: gid(WEBHOOK), v: oldest.version });
      expect(refused.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'DRAFT_EXISTS' });
      expect(refused.errors[0].message).toContain('overwrite: true');
      expect((await send(RESTORE, { id: gid(WEBHOOK), v: oldest.version, o: true })).errors).toBeUndefined();
      const one = await send(DISCARD, { id: gid(WEBHOOK) });
      const two = await send(DISCARD, { id: gid(WEBHOOK) });
      expect([
        one.data.discardHogFunctionDraft.hogFunction.draft,
        two.data.discardHogFunctionDraft.hogFunction.draft,
      ]).toEqual([null, null]);
      const missing = await h.gql(
        `{ node(id: "${gid(WEBHOOK)}") { ... on HogFunction { revision(version: 999) { version } } } }`,
      );
      expect(missing.body.data.node.revision).toBeNull();
    });

    it('refuses an update made against a stale updatedAt, once, with CONFLICT', async () => {
      const read = await h.gql(`{ node(id: "${gid(WEBHOOK)}") { ... on HogFunction { updatedAt } } }`);
      const update = (base: string) =>
        send(
          'mutation($id: ID!, $base: DateTime) { updateHogFunction(input: {id: $id, description: "x", baseUpdatedAt: $base}) { hogFunction { updatedAt } } }',
          {
            id: gid(WEBHOOK),
            base,
          },
        );
      const first = await update(read.body.data.node.updatedAt);
      expect(first.errors).toBeUndefined();
      const stale = await update(read.body.data.node.updatedAt);
      expect(stale.errors[0].extensions).toMatchObject({ code: 'CONFLICT', reason: 'STALE_UPDATE' });
      expect(stale.errors[0].message).toContain('baseUpdatedAt');
      expect(h.upstreamCalls({ method: 'PATCH' })).toHaveLength(2);
    });
  });
}
