// docs/scopes.md, generated from the schema: which personal API key scopes each field needs, read
// from the "Scopes: …" line of its description (scopes.ts). `npm run schema:print` writes it with
// schema.graphql; `npm run schema:check` fails when the committed page differs.
import { type GraphQLSchema, isInterfaceType, isObjectType } from 'graphql';
import { scopesOf } from '../src/schema/scopes.ts';

const HEADER = `# Scopes: what a personal API key needs for each field

Generated from the schema by \`npm run schema:print\`; do not edit by hand. Every field below
calls PostHog with the caller's key, and PostHog refuses the call (the field answers
\`FORBIDDEN\`, naming the scope) unless the key has these scopes. A \`:write\` scope also grants
\`:read\`. Create a key at PostHog → Settings → Personal API keys and tick these scopes, for the
project (or organization) you mean to use. Fields not listed need no scope of their own beyond
the field that returns their object.
`;

export function scopesDoc(schema: GraphQLSchema): string {
  const rows: string[] = [];
  const byScope = new Map<string, string[]>();
  const types = Object.values(schema.getTypeMap())
    .filter((t) => (isObjectType(t) || isInterfaceType(t)) && !t.name.startsWith('__'))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const type of types) {
    if (!isObjectType(type) && !isInterfaceType(type)) continue;
    for (const field of Object.values(type.getFields()).sort((a, b) => a.name.localeCompare(b.name))) {
      const scopes = scopesOf(field.description);
      if (scopes.length === 0) continue;
      const name = `${type.name}.${field.name}`;
      rows.push(`| \`${name}\` | ${scopes.map((s) => `\`${s}\``).join(', ')} |`);
      for (const scope of scopes) byScope.set(scope, [...(byScope.get(scope) ?? []), name]);
    }
  }
  const perScope = [...byScope]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([scope, fields]) => `- \`${scope}\`: ${fields.map((f) => `\`${f}\``).join(', ')}`);
  return [
    HEADER,
    '## By field',
    '',
    '| field | scopes |',
    '|---|---|',
    ...rows,
    '',
    '## By scope',
    '',
    ...perScope,
    '',
  ].join('\n');
}
