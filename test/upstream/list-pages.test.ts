// A list page read two ways: whole, for a connection that shows every entry, and by id, for a
// cross-link that names a few configs. Both give what parsing the page whole gave, and a bad
// entry fails where it is read, not the entries beside it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ListedConfigs } from '../../src/loaders/destination-configs/listed.ts';
import { normalizeConfig } from '../../src/upstream/posthog/normalize.ts';
import { normalizeOffsetPage } from '../../src/upstream/wire/pages.ts';
import { codeOf } from '../support/code-of.ts';

const config = (id: number, extra = '') =>
  `{"id": ${id}${extra}, "plugin": 3, "enabled": true, "order": ${id}, "name": "c${id}", "config": {"id": 99}}`;
const pageOf = (...entries: string[]) => projectPageOf('1', ...entries);
const projectPageOf = (projectId: string, ...entries: string[]) =>
  normalizeOffsetPage(
    { chunks: [Buffer.from(`{"count": 150, "next": null, "results": [${entries.join(', ')}]}`)] },
    (raw) => normalizeConfig(raw, projectId, 'list'),
  );

describe('a list page', () => {
  it('reads its head whole, as the entries read one by one', () => {
    const page = pageOf(config(1), config(2), config(3));
    expect(page.count).toBe(150);
    const head = page.head(2);
    expect(head.map((c) => c.databaseId)).toEqual([1, 2]);
    expect(head[0]).toBe(page.at(0));
    expect(page.head(10).map((c) => c.name)).toEqual(['c1', 'c2', 'c3']);
    expect(pageOf(config(1), config(2), config(3)).head(10)).toEqual([0, 1, 2].map((i) => page.at(i)));
  });

  it("lets its answer's bytes go once its head has read every entry, and answers as before", async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const answer = (entries: number) => ({
      chunks: [
        Buffer.from(
          `{"count": ${entries}, "results": [${[1, 2, 3]
            .slice(0, entries)
            .map((id) => config(id))
            .join(', ')}]}`,
        ),
      ],
    });
    const read = (raw: unknown) => normalizeConfig(raw, '1', 'list');
    const whole = answer(3);
    const partly = answer(3);
    const bytesOf = (a: { chunks: Buffer[] }) => new WeakRef(a.chunks[0]!);
    const [wholeBytes, partlyBytes] = [bytesOf(whole), bytesOf(partly)];
    const readWhole = normalizeOffsetPage(whole, read);
    const readPartly = normalizeOffsetPage(partly, read);
    whole.chunks.length = 0;
    partly.chunks.length = 0;
    expect(readWhole.head(100).map((c) => c.databaseId)).toEqual([1, 2, 3]);
    expect(readPartly.head(2).map((c) => c.databaseId)).toEqual([1, 2]);
    // A fresh turn: nothing on the stack still points at them.
    await new Promise((resolve) => setImmediate(resolve));
    gc();
    expect(wholeBytes.deref()).toBeUndefined();
    // A page read in part keeps them, for the entries not read yet.
    expect(partlyBytes.deref()).toBeDefined();
    expect(readPartly.member(2, 'id')).toBe(3);
    expect([readWhole.size, readWhole.has(2), readWhole.has(3), readWhole.at(2).name]).toEqual([
      3,
      true,
      false,
      'c3',
    ]);
    expect(readWhole.head(2)).toEqual(readWhole.head(3).slice(0, 2));
  });

  it('fails its head at the bad entry when the answer is not JSON past the good ones', () => {
    const page = pageOf(config(1), '{"id": tru}', config(3));
    expect(codeOf(() => page.head(3))).toBe('UPSTREAM_UNAVAILABLE');
    expect(page.at(0).databaseId).toBe(1);
    expect(page.has(2) && page.at(2).databaseId).toBe(3);
  });

  it('finds configs by id, parsing only those asked for', () => {
    const listed = new ListedConfigs();
    const page = pageOf(config(4), config(5), config(6));
    listed.add('1', page);
    expect(listed.get('1/5')?.name).toBe('c5');
    expect([0, 1, 2].map((i) => page.isRead(i))).toEqual([false, true, false]);
    expect(listed.has('1/6')).toBe(true);
    expect(listed.has('1/99')).toBe(false);
    listed.forget('1/6');
    expect(listed.get('1/6')).toBeUndefined();
  });

  it('finds no config by an id the upstream wrote twice, nor one whose entry is malformed', () => {
    const listed = new ListedConfigs();
    listed.add('1', pageOf(config(7, ', "id": 8'), '{"id": 9, "plugin": "x"}', config(10)));
    // JSON.parse keeps the second id: the entry is neither 7 (its first) nor found as 8.
    expect(listed.get('1/7')).toBeUndefined();
    expect(listed.get('1/8')).toBeUndefined();
    expect(listed.get('1/9')).toBeUndefined();
    expect(listed.get('1/10')?.name).toBe('c10');
  });

  it('keeps the first page that lists a config, as the first answer read', () => {
    const listed = new ListedConfigs();
    listed.add('1', pageOf(config(11)));
    listed.add('1', pageOf(config(11, ', "description": "later"')));
    listed.add('2', projectPageOf('2', config(11)));
    expect(listed.get('1/11')?.description).toBeNull();
    expect(listed.get('2/11')?.projectId).toBe('2');
  });
  it("fails a list whose count no page could have at once, and one this page's size belies when it is read", () => {
    const read = (raw: unknown) => normalizeConfig(raw, '1', 'list');
    const answer =
      (count: string, offset = 0) =>
      () =>
        normalizeOffsetPage(
          {
            chunks: [
              Buffer.from(`{"count": ${count}, "results": [${config(1)}, ${config(2)}, ${config(3)}]}`),
            ],
          },
          read,
          offset,
        );
    for (const count of ['1.5', '-1', '"3"', '20000000'])
      expect(codeOf(answer(count)), count).toBe('UPSTREAM_ERROR');
    expect(codeOf(answer('5', 10)), 'a count short of the offset').toBe('UPSTREAM_ERROR');
    // Two: fewer than the three this page holds. Found when the page is read whole or its count asked.
    expect(codeOf(() => answer('2')().head(3))).toBe('UPSTREAM_ERROR');
    expect(codeOf(() => answer('2')().head(1))).toBe('UPSTREAM_ERROR');
    expect(codeOf(() => answer('2')().count)).toBe('UPSTREAM_ERROR');
    expect(answer('null', 10)().count).toBe(13);
    // Nor is anything of it found by id.
    const listed = new ListedConfigs();
    listed.add('1', answer('2')());
    expect(listed.get('1/2')).toBeUndefined();
    expect(
      answer('3')()
        .head(3)
        .map((c) => c.databaseId),
    ).toEqual([1, 2, 3]);
  });
});
