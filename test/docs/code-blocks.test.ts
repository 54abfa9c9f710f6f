// The docs show the examples as they are: a ```ts or ```js block marked
// `<!-- file examples/… -->` is that file's text, and no other block names a file of examples/
// (it would be a copy that no test runs). Every relative link of README.md and docs/*.md leads to
// a file that exists, and to a heading of it that exists when it names one.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeBlocks, markdownFiles, ROOT } from './markdown-blocks.ts';

const CODE = new Set(['ts', 'js', 'typescript', 'javascript', 'tsx', 'jsx']);

describe.each(markdownFiles())('%s', (file) => {
  const text = readFileSync(join(ROOT, file), 'utf8');

  it('shows files of examples/ as they are', () => {
    for (const block of codeBlocks(file, text).filter((b) => CODE.has(b.language))) {
      const named = /^<!-- file (examples\/[\w./-]+) -->$/.exec(block.marker ?? '')?.[1];
      if (!named) {
        expect(
          block.code,
          `line ${block.line}: a block naming examples/ needs <!-- file examples/… -->`,
        ).not.toMatch(/examples\//);
        continue;
      }
      expect(existsSync(join(ROOT, named)), `line ${block.line}: ${named} exists`).toBe(true);
      expect(block.code, `line ${block.line}: the text of ${named}`).toBe(
        readFileSync(join(ROOT, named), 'utf8').replace(/\n+$/, ''),
      );
    }
  });

  it('links only to files and headings that exist', () => {
    const outsideCode = text.replace(/```[\s\S]*?```/g, '');
    for (const [, target] of outsideCode.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue; // http:, https:, mailto:
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = path === '' ? file : normalize(join(dirname(file), path));
      expect(existsSync(join(ROOT, resolved)), `${target} (${resolved}) exists`).toBe(true);
      if (anchor && resolved.endsWith('.md')) {
        expect(headingSlugs(readFileSync(join(ROOT, resolved), 'utf8')), `${target}: a heading`).toContain(
          anchor,
        );
      }
    }
  });
});

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as dashes. */
function headingSlugs(markdown: string): string[] {
  const seen = new Map<string, number>();
  return [...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)].map(([, heading]) => {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    return count === 0 ? slug : `${slug}-${count}`;
  });
}
