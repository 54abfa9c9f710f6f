// @defer and @stream over multipart/mixed, read part by part from the HTTP stream: with the
// activity calls held upstream, the configs arrive before the held calls have ended, and the
// parts merged give exactly the non-deferred answer. Deferred parts count in the budget.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../support/harness.ts';
import { holdRequests } from '../support/hold-requests.ts';

const FIELDS = (defer: boolean, stream: boolean) => `
query Combined {
  project(projectId: "1") {
    id
    name
    destinationConfigs(first: 5) {
      totalCount
      edges${stream ? ' @stream(initialCount: 1)' : ''} { node { id name enabled } }
    }
    ... ${defer ? '@defer(label: "activity") ' : ''}{
      activityLog(first: 5) { edges { node { id activity createdAt } } pageInfo { hasNextPage } }
      importantChanges { entries { id activity } }
    }
  }
}`;

interface Part {
  // biome-ignore lint/suspicious/noExplicitAny: parts are inspected field by field.
  body: any;
}

/** Posts and reads the multipart/mixed answer as it streams, telling `onPart` of each as it comes. */
async function multipart(
  url: string,
  query: string,
  onPart: (part: Part) => void = () => {},
): Promise<Part[]> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'multipart/mixed',
      authorization: 'Bearer phx_full',
    },
    body: JSON.stringify({ query }),
  });
  expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
  const parts: Part[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    // A part is complete once the next boundary follows it.
    for (;;) {
      const match = /\r\n\r\n([\s\S]*?)\r\n---/.exec(buffered);
      if (!match) break;
      parts.push({ body: JSON.parse(match[1]!) });
      onPart(parts.at(-1)!);
      buffered = buffered.slice(match.index + match[0].length - 3);
    }
  }
  return parts;
}

/** Applies the incremental parts to the first one, as a client does. */
function merged(parts: Part[]): unknown {
  const data = structuredClone(parts[0]!.body.data);
  for (const part of parts.slice(1)) {
    for (const increment of part.body.incremental ?? []) {
      let target = data;
      const path = increment.path as (string | number)[];
      if (increment.items) {
        for (const key of path.slice(0, -1)) target = target[key];
        const list = target as unknown[];
        list.splice(path.at(-1) as number, increment.items.length, ...increment.items);
      } else {
        for (const key of path) target = target[key];
        Object.assign(target, increment.data);
      }
    }
  }
  return data;
}

describe('@defer and @stream', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(() => h.reset());

  it('sends the configs before the delayed activity call has ended, and the merged answer equals the plain one', async () => {
    const plain = await h.gql(FIELDS(false, false));
    expect(plain.body.errors).toBeUndefined();
    h.reset();
    // The activity calls are held upstream until the first part has come (or, that never coming, 10 s).
    const upstream = holdRequests(h.upstream, (url) => url.includes('/activity_log/'));
    const giveUp = setTimeout(() => upstream.release(), 10_000);
    let activityHeldAtFirstPart: number | null = null;
    const parts = await multipart(h.url, FIELDS(true, false), () => {
      if (activityHeldAtFirstPart !== null) return;
      activityHeldAtFirstPart = upstream.held();
      upstream.release();
    });
    clearTimeout(giveUp);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts[0]!.body.hasNext).toBe(true);
    expect(parts[0]!.body.data.project.destinationConfigs.edges).toHaveLength(5);
    expect(parts[0]!.body.data.project.activityLog).toBeUndefined();
    // Every activity call was still held upstream (none had ended) when the first part came.
    expect(activityHeldAtFirstPart).toBe(
      h.upstreamCalls().filter((c) => c.path.includes('/activity_log/')).length,
    );
    expect(parts.at(-1)!.body.hasNext).toBe(false);
    expect(merged(parts)).toEqual(plain.body.data);
  });

  it('streams connection edges after the first, to the same answer', async () => {
    const plain = await h.gql(FIELDS(false, false));
    const parts = await multipart(h.url, FIELDS(false, true));
    expect(parts[0]!.body.data.project.destinationConfigs.edges).toHaveLength(1);
    expect(merged(parts)).toEqual(plain.body.data);
  });
});

describe('limits with @defer', () => {
  it('counts a deferred part in the upstream-call estimate exactly as if it were not deferred', async () => {
    const h = await startHarness({ env: { MAX_UPSTREAM_CALLS: '3' } });
    try {
      const plain = await h.gql(FIELDS(false, false));
      const deferred = await h.gql(FIELDS(true, false));
      expect(plain.body.errors[0].extensions).toMatchObject({
        code: 'QUERY_TOO_COMPLEX',
        measure: 'upstreamCalls',
      });
      expect(deferred.body.errors[0].extensions).toEqual(plain.body.errors[0].extensions);
      expect(h.upstreamCalls()).toHaveLength(0);
    } finally {
      await h.close();
    }
  });
});
