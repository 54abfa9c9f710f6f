// The fenced code blocks of the README and docs/, with the marker line each example carries:
//   <!-- example dialect=posthog-2026 key=phx_full expect=FORBIDDEN take=id<-CreateHogFunction:createHogFunction.hogFunction.id variables={"id": "…"} -->
// before a ```graphql block, and
//   <!-- file examples/apollo-client.ts -->
// before a ```ts or ```js block that shows a file under examples/. `variables=` comes last: the
// rest of the line up to ` -->` is its JSON.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = new URL('../../', import.meta.url).pathname;

export interface CodeBlock {
  /** The Markdown file, relative to the checkout (README.md, docs/…). */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  language: string;
  /** The block's text, its fence's indentation removed. */
  code: string;
  /** The HTML comment on the line before the fence (blank lines between allowed), if any. */
  marker: string | null;
}

/** README.md, the emulator's README and every docs/*.md, in a stable order. */
export function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', 'posthog-emulator/README.md', ...docs];
}

export function codeBlocks(file: string, text = readFileSync(join(ROOT, file), 'utf8')): CodeBlock[] {
  const lines = text.split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j]!)) body.push(lines[j++]!.slice(indent));
    let k = i - 1;
    while (k >= 0 && lines[k]!.trim() === '') k--;
    const before = k >= 0 ? lines[k]!.trim() : '';
    blocks.push({
      file,
      line: i + 1,
      language: open[2]!,
      code: body.join('\n'),
      marker: /^<!--.*-->$/.test(before) ? before : null,
    });
    i = j;
  }
  return blocks;
}

export interface ExampleMarker {
  dialect: string;
  key: string;
  /** Error codes the text says the example answers (each must appear, and no other). */
  expect: string[];
  /** Variables taken from an earlier example's answer: name ← operation name and a path in its data. */
  take: { variable: string; operation: string; path: string[] }[];
  variables: Record<string, unknown>;
}

/** Parses `<!-- example … -->`; throws saying what is wrong. */
export function parseExampleMarker(marker: string): ExampleMarker {
  const match = /^<!-- example (.*?)\s*-->$/.exec(marker);
  if (!match) throw new Error(`expected "<!-- example dialect=… key=… variables={…} -->", found ${marker}`);
  let rest = match[1]!;
  let variables: Record<string, unknown> = {};
  const at = rest.indexOf('variables=');
  if (at >= 0) {
    variables = JSON.parse(rest.slice(at + 'variables='.length));
    rest = rest.slice(0, at);
  }
  const attributes = new Map<string, string[]>();
  for (const token of rest.split(/\s+/).filter(Boolean)) {
    const eq = token.indexOf('=');
    if (eq < 0) throw new Error(`"${token}" is not name=value`);
    const name = token.slice(0, eq);
    attributes.set(name, [...(attributes.get(name) ?? []), token.slice(eq + 1)]);
  }
  const one = (name: string) => {
    const values = attributes.get(name);
    if (values?.length !== 1) throw new Error(`the marker needs one ${name}=`);
    return values[0]!;
  };
  const take = (attributes.get('take') ?? []).map((value) => {
    const parsed = /^(\w+)<-(\w+):([\w.]+)$/.exec(value);
    if (!parsed) throw new Error(`take=${value}: expected take=<variable><-<Operation>:<path.in.data>`);
    return { variable: parsed[1]!, operation: parsed[2]!, path: parsed[3]!.split('.') };
  });
  return {
    dialect: one('dialect'),
    key: one('key'),
    expect: (attributes.get('expect') ?? []).flatMap((value) => value.split(',')),
    take,
    variables,
  };
}
