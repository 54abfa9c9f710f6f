// The house rules on size (docs/architecture.md): no source file over 260 lines, no function whose
// body spans over 80. Checked on src/ and posthog-emulator/src/ with the TypeScript parser, so
// methods, arrow functions and function expressions count as functions too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCES = ['src', 'posthog-emulator/src'];
const MAX_FILE_LINES = 260;
const MAX_FUNCTION_LINES = 80;

function filesUnder(dir: string): string[] {
  // As tsc's include globs: a name starting with a dot is no source.
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith('.')) return [];
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : name.endsWith('.ts') ? [full] : [];
  });
}

interface Parsed {
  /** The file, relative to the repository. */
  file: string;
  source: ts.SourceFile;
}

const parsed: Parsed[] = SOURCES.flatMap((dir) => filesUnder(path.join(ROOT, dir))).map((full) => ({
  file: path.relative(ROOT, full),
  source: ts.createSourceFile(full, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true),
}));

/** A source file's line count, a trailing newline not counting as a line. */
function lineCount(source: ts.SourceFile): number {
  const text = source.text;
  if (text.length === 0) return 0;
  return source.getLineAndCharacterOfPosition(text.length).line + (text.endsWith('\n') ? 0 : 1);
}

const lineOf = (source: ts.SourceFile, position: number) =>
  source.getLineAndCharacterOfPosition(position).line + 1;

/** A function's name as a reader would search for it. */
function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText();
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

interface Long {
  where: string;
  name: string;
  lines: number;
}

function longFunctions({ file, source }: Parsed): Long[] {
  const found: Long[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)) &&
      node.body
    ) {
      const start = lineOf(source, node.body.getStart(source));
      const lines = lineOf(source, node.body.getEnd()) - start + 1;
      if (lines > MAX_FUNCTION_LINES)
        found.push({ where: `${file}:${lineOf(source, node.getStart(source))}`, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the house rules on size', () => {
  it('finds the files it checks', () => {
    // A walk that found nothing would pass every rule below.
    expect(parsed.filter((p) => p.file.startsWith('src/')).length).toBeGreaterThan(100);
    expect(parsed.filter((p) => p.file.startsWith('posthog-emulator/')).length).toBeGreaterThan(10);
  });

  it(`no file is over ${MAX_FILE_LINES} lines`, () => {
    const over = parsed
      .map((p) => ({ file: p.file, lines: lineCount(p.source) }))
      .filter((p) => p.lines > MAX_FILE_LINES)
      .map((p) => `${p.file}:1 (${p.lines} lines)`);
    expect(over).toEqual([]);
  });

  it(`no function body spans over ${MAX_FUNCTION_LINES} lines`, () => {
    const over = parsed.flatMap(longFunctions).map((f) => `${f.where} ${f.name} (${f.lines} lines)`);
    expect(over).toEqual([]);
  });
});
