// The demo is today's PostHog: `npm start` (and `npm run dev`) serve the posthog-2026 dialect
// unless REFERENCE_DIALECT says otherwise, and README's example answers every kind of destination
// there. (The harness keeps its own default, spec.)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';

const ROOT = new URL('../..', import.meta.url);
const scripts = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')).scripts;

/** The dialect a package.json script hands node, run through sh with node replaced by an echo. */
function dialectOf(script: string, env: Record<string, string>): string {
  const command = script
    .replace(/^.*?&& /, '')
    .replace(/exec node .*$|node (--[\w=-]+ )*--import tsx .*$/, `sh -c 'printf %s "$REFERENCE_DIALECT"'`);
  return execFileSync('sh', ['-c', command], { env: { PATH: process.env.PATH, ...env } }).toString();
}

describe('the demo', () => {
  it('serves posthog-2026 from npm start and npm run dev unless REFERENCE_DIALECT is set', () => {
    for (const name of ['start', 'dev']) {
      expect(dialectOf(scripts[name], {}), name).toBe('posthog-2026');
      expect(dialectOf(scripts[name], { REFERENCE_DIALECT: 'posthog' }), name).toBe('posthog');
    }
  });

  describe("README's example", () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({ dialect: 'posthog-2026' });
    });
    afterAll(() => h.close());

    it('answers hog functions, plugin configs and batch exports, without an error', async () => {
      const readme = readFileSync(new URL('README.md', ROOT), 'utf8');
      const example = /<!-- example dialect=posthog-2026[^\n]*\n```graphql\n([\s\S]*?)```/.exec(readme)![1]!;
      const { body } = await h.gql(example, { projectId: '@current' });
      expect(body.errors).toBeUndefined();
      const p = body.data.project;
      const kinds = [p.destinations, p.pluginConfigs, p.batchExports].flatMap((c) =>
        c.edges.map((e: { node: { __typename: string } }) => e.node.__typename),
      );
      expect(new Set(kinds)).toEqual(new Set(['HogFunction', 'DestinationConfig', 'BatchExport']));
    });
  });
});
