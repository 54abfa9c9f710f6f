// docs/architecture.md is the map of the code: every path it names exists (in src/, from the
// repository's root, or, in the folder table, in its row's folder), and every folder of src/ has
// its row in the folder table.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './markdown-blocks.ts';

const map = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
/** Each backticked token that looks like a path (`a/b.ts`, `live/`, `main.ts`), with its row's folder. */
const paths = map.split('\n').flatMap((line) => {
  const row = /^\| `([\w.-]+\/)`/.exec(line)?.[1] ?? '';
  return (
    [...line.matchAll(/`([\w.-]+(?:\/[\w.<>-]*)*)`/g)]
      .map((m) => m[1]!)
      // dist/ is built, not checked in: a fresh clone has none.
      .filter((p) => /\.(ts|js|md)$|\/$/.test(p) && !p.includes('<') && p !== 'dist/')
      .map((path) => ({ path, row }))
  );
});

describe('docs/architecture.md', () => {
  it('names paths', () => {
    expect(paths.length).toBeGreaterThan(40);
  });

  it.each(paths)('$path exists', ({ path, row }) => {
    const candidates = [
      join(ROOT, 'src', path),
      join(ROOT, path),
      join(ROOT, 'src', row, path),
      join(ROOT, row, path),
    ];
    expect(
      candidates.some((c) => existsSync(c)),
      `${path} is in src/ or the repository`,
    ).toBe(true);
  });

  it('has a row for every folder of src/', () => {
    const folders = readdirSync(join(ROOT, 'src')).filter((n) =>
      statSync(join(ROOT, 'src', n)).isDirectory(),
    );
    for (const folder of folders) expect(map, `${folder}/ is on the map`).toContain(`\`${folder}/\``);
  });
});
