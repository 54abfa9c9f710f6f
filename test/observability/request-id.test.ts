// x-request-id: taken from the caller when sane, else made; answered, logged with the operation
// and with a masked error, and sent upstream with every call of the request.
import { Writable } from 'node:stream';
import type { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMaskError } from '../../src/errors/masking.ts';
import { createLogger, logOperation, type MaskedErrors } from '../../src/observability/operation-log.ts';
import { type Harness, startHarness } from '../support/harness.ts';

const QUERY = '{ project(projectId: "1") { name destinationConfig(databaseId: 1) { name } } }';

describe('request ids', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  const operationLines = () => h.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'graphql operation');

  it('keeps a sane caller id end to end: answer, log line and every upstream call', async () => {
    h.reset();
    h.logs.length = 0;
    const answer = await h.post(JSON.stringify({ query: QUERY }), {
      authorization: 'Bearer phx_full',
      'x-request-id': 'frontend-42.a:b',
    });
    expect(answer.headers.get('x-request-id')).toBe('frontend-42.a:b');
    expect(operationLines()).toEqual([expect.objectContaining({ requestId: 'frontend-42.a:b' })]);
    const calls = h.upstreamCalls();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    for (const call of calls) expect(call.requestId).toBe('frontend-42.a:b');
  });

  it('replaces a missing or unsafe id with a new UUID, different per request', async () => {
    h.reset();
    const unsafe = await h.post(JSON.stringify({ query: QUERY }), {
      authorization: 'Bearer phx_full',
      'x-request-id': 'x\u00e9 <script>'.replace('\u00e9', 'e'),
    });
    const none = await h.post(JSON.stringify({ query: QUERY }), { authorization: 'Bearer phx_full' });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(unsafe.headers.get('x-request-id')).toMatch(uuid);
    expect(none.headers.get('x-request-id')).toMatch(uuid);
    expect(none.headers.get('x-request-id')).not.toBe(unsafe.headers.get('x-request-id'));
    const ids = new Set(h.upstreamCalls().map((c) => c.requestId));
    expect(ids).toEqual(new Set([unsafe.headers.get('x-request-id'), none.headers.get('x-request-id')]));
  });

  it('answers GraphiQL, /health and refused requests with an id too', async () => {
    const base = h.url.replace('/graphql', '');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect((await fetch(`${base}/health`)).headers.get('x-request-id')).toMatch(uuid);
    expect((await fetch(h.url, { headers: { accept: 'text/html' } })).headers.get('x-request-id')).toMatch(
      uuid,
    );
    const refused = await h.post('{', { authorization: 'Bearer phx_full' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('x-request-id')).toMatch(uuid);
  });

  it('writes a masked error with the request id of its operation; the caller sees only the code', () => {
    // The gateway validates every upstream answer, so no request of a test reaches a bug; the
    // parts are exercised directly: yoga's maskError as app.ts makes it, then the operation log.
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const masked: MaskedErrors = new WeakMap();
    const maskError = createMaskError((error, maskedError) => masked.set(maskedError, error));
    const shown = maskError(new TypeError('boom: cannot read x of undefined')) as GraphQLError;
    expect(shown.message).toBe('Unexpected error.');
    expect(shown.extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    logOperation(
      createLogger('info', sink),
      masked,
    )({
      request: new Request('http://gateway.invalid/graphql'),
      requestId: 'masked-1',
      name: 'Broken',
      type: 'query',
      durationMs: 1,
      calls: null,
      errors: [shown],
      hasData: false,
    });
    const logged = lines.map((l) => JSON.parse(l));
    expect(logged[0]).toMatchObject({
      msg: 'unexpected error',
      requestId: 'masked-1',
      error: { message: 'boom: cannot read x of undefined', stack: expect.stringContaining('TypeError') },
    });
    expect(logged[1]).toMatchObject({
      msg: 'graphql operation',
      requestId: 'masked-1',
      errors: ['INTERNAL_SERVER_ERROR'],
    });
  });
});
