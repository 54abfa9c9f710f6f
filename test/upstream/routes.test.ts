// Each upstream route is declared once (src/upstream/posthog/routes.ts): the path it builds is
// parsed back by its own matcher, to its own template and the same ids, and by no other route.
import { describe, expect, it } from 'vitest';
import { PATHS, resourceOf, routeTemplate } from '../../src/upstream/posthog/paths.ts';
import { matchRoute, ROUTES, type Route, type SEGMENTS } from '../../src/upstream/posthog/routes.ts';

/** A value of each collection's id, as a caller gives it and as the path writes it. */
const SAMPLES: Record<keyof typeof SEGMENTS, [unknown, string]> = {
  projects: ['0042', '42'],
  pipeline_destination_configs: [7, '7'],
  hog_functions: ['0190A7B2-1C3D-7E4F-8A9B-0C1D2E3F4A5B', '0190a7b2-1c3d-7e4f-8a9b-0c1d2e3f4a5b'],
  revisions: [3, '3'],
  batch_exports: ['11111111-2222-4333-8444-555555555555', '11111111-2222-4333-8444-555555555555'],
  runs: ['21111111-2222-4333-8444-555555555555', '21111111-2222-4333-8444-555555555555'],
  backfills: ['31111111-2222-4333-8444-555555555555', '31111111-2222-4333-8444-555555555555'],
  hog_function_templates: ['template-webhook', 'template-webhook'],
};

/** The params of a template, each with the collection it is the id of. */
function paramsOf(template: string) {
  const parts = template.split('/');
  return parts.flatMap((part, index) =>
    part.startsWith(':')
      ? [{ name: part.slice(1), collection: parts[index - 1] as keyof typeof SEGMENTS }]
      : [],
  );
}

describe('upstream routes', () => {
  for (const [name, declared] of Object.entries(ROUTES) as [string, Route<string>][]) {
    it(`${name}: the path it builds parses back to ${declared.template}`, () => {
      const params = paramsOf(declared.template);
      const path = (declared.path as (...args: unknown[]) => string)(
        ...params.map((p) => SAMPLES[p.collection][0]),
      );
      const expected = Object.fromEntries(params.map((p) => [p.name, SAMPLES[p.collection][1]]));
      expect(declared.match(path)?.params).toEqual(expected);
      expect(matchRoute(path)).toMatchObject({ template: declared.template, params: expected });
      expect(routeTemplate(path)).toBe(declared.template);
      expect(path).not.toContain(':');
    });
  }

  it('folds a path of no route into other', () => {
    expect(routeTemplate('/api/projects/1/unknown/')).toBe('other');
    expect(routeTemplate('/api/projects/1/hog_functions/not-a-uuid/')).toBe('other');
    expect(resourceOf('/api/projects/')).toBeNull();
  });

  it('builds the paths loaders call, and refuses ids that may not go into one', () => {
    expect(PATHS.hogFunctionInvocations('@current', null)).toBe(
      '/api/projects/@current/hog_functions/new/invocations/',
    );
    expect(PATHS.batchExportRun('1', SAMPLES.batch_exports[1], SAMPLES.runs[1])).toBe(
      `/api/projects/1/batch_exports/${SAMPLES.batch_exports[1]}/runs/${SAMPLES.runs[1]}/`,
    );
    expect(() => PATHS.config('1/../2', 1)).toThrow(/projectId/);
    expect(() => PATHS.hogFunction('1', '../x')).toThrow(/hog function/);
    expect(() => PATHS.hogFunctionRevision('1', SAMPLES.batch_exports[1], -1)).toThrow(RangeError);
    // @ts-expect-error: a config id is a number
    expect(() => PATHS.config('1', 'x')).toThrow();
  });

  it('reads the project, the collection and the config a path is about', () => {
    expect(resourceOf(PATHS.configJob('@current', 9))).toEqual({
      projectId: '@current',
      configId: 9,
      collection: 'pipeline_destination_configs',
    });
    expect(resourceOf(PATHS.hogFunctions('5'))).toEqual({
      projectId: '5',
      configId: null,
      collection: 'hog_functions',
    });
    expect(
      resourceOf(PATHS.batchExportBackfillCancel('5', SAMPLES.batch_exports[1], SAMPLES.backfills[1])),
    ).toEqual({ projectId: '5', configId: null, collection: 'batch_exports' });
    expect(resourceOf(PATHS.project('5'))).toEqual({ projectId: '5', configId: null, collection: null });
  });
});
