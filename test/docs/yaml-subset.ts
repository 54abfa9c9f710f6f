// Reads the block YAML that deploy/kubernetes.yaml is written in, with no YAML library in the
// dependencies: documents split by `---`, mappings and sequences by indentation, whole-line
// comments, and scalars that are plain, double-quoted or a JSON flow sequence. Anything else
// (anchors, block strings, inline comments) is refused, so the manifest stays in this subset.

type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
  number: number;
}

export function parseYamlDocuments(source: string): Yaml[] {
  const documents: Line[][] = [[]];
  for (const [index, raw] of source.split('\n').entries()) {
    const text = raw.trimEnd();
    if (text === '---') {
      documents.push([]);
      continue;
    }
    if (text.trim() === '' || text.trim().startsWith('#')) continue;
    if (/\s#/.test(text.replace(/"[^"]*"/g, '""'))) throw new Error(`line ${index + 1}: no inline comments`);
    const indent = text.length - text.trimStart().length;
    documents.at(-1)!.push({ indent, text: text.trim(), number: index + 1 });
  }
  return documents.filter((lines) => lines.length > 0).map((lines) => block(lines, 0, lines[0]!.indent)[0]);
}

function scalar(text: string, line: Line): Yaml {
  if (text.startsWith('"') || text.startsWith('[')) return JSON.parse(text);
  if (/^[|>&*!{']/.test(text)) throw new Error(`line ${line.number}: outside the subset: ${text}`);
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null' || text === '~') return null;
  return text;
}

/** The block starting at lines[i], whose lines are indented `indent`; returns it and the next index. */
function block(lines: Line[], i: number, indent: number): [Yaml, number] {
  return lines[i]!.text === '-' || lines[i]!.text.startsWith('- ')
    ? sequence(lines, i, indent)
    : mapping(lines, i, indent);
}

function sequence(lines: Line[], i: number, indent: number): [Yaml, number] {
  const items: Yaml[] = [];
  while (i < lines.length && lines[i]!.indent === indent && lines[i]!.text.startsWith('-')) {
    const rest = lines[i]!.text.slice(1).trimStart();
    if (rest === '') {
      const [value, next] = block(lines, i + 1, lines[i + 1]!.indent);
      items.push(value);
      i = next;
    } else if (/^[\w.-]+:(\s|$)/.test(rest)) {
      // "- key: value" opens a mapping indented where its key is.
      const inner = indent + lines[i]!.text.length - rest.length;
      const copy = [...lines];
      copy[i] = { ...lines[i]!, indent: inner, text: rest };
      const [value, next] = mapping(copy, i, inner);
      items.push(value);
      i = next;
    } else {
      items.push(scalar(rest, lines[i]!));
      i++;
    }
  }
  return [items, i];
}

function mapping(lines: Line[], i: number, indent: number): [Yaml, number] {
  const map: { [key: string]: Yaml } = {};
  while (i < lines.length && lines[i]!.indent === indent && !lines[i]!.text.startsWith('-')) {
    const line = lines[i]!;
    const match = /^([\w./-]+):(?:\s+(.*))?$/.exec(line.text);
    if (!match) throw new Error(`line ${line.number}: expected "key: value", found ${line.text}`);
    const key = match[1]!;
    if (match[2] !== undefined) {
      map[key] = scalar(match[2], line);
      i++;
      continue;
    }
    const next = lines[i + 1];
    const nested = next && (next.indent > indent || (next.indent === indent && next.text.startsWith('-')));
    if (!nested) {
      map[key] = null;
      i++;
      continue;
    }
    const [value, after] = block(lines, i + 1, next.indent);
    map[key] = value;
    i = after;
  }
  if (i < lines.length && lines[i]!.indent > indent) {
    throw new Error(`line ${lines[i]!.number}: unexpected indentation`);
  }
  return [map, i];
}
