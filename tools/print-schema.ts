// `npm run schema:print` writes schema.graphql and docs/scopes.md from the builder;
// `npm run schema:check` fails when either committed file differs from what the builder prints.
import { readFileSync, writeFileSync } from 'node:fs';
import { printedSchema, schema } from '../src/schema/index.ts';
import { scopesDoc } from './scopes-doc.ts';

const FILES = [
  { url: new URL('../schema.graphql', import.meta.url), name: 'schema.graphql', text: printedSchema() },
  { url: new URL('../docs/scopes.md', import.meta.url), name: 'docs/scopes.md', text: scopesDoc(schema) },
];

const read = (url: URL) => {
  try {
    return readFileSync(url, 'utf8');
  } catch {
    return ''; // A missing file is stale too.
  }
};

if (process.argv.includes('--check')) {
  const stale = FILES.filter((f) => read(f.url) !== f.text).map((f) => f.name);
  if (stale.length > 0) {
    console.error(`${stale.join(' and ')} stale: run \`npm run schema:print\` and commit the result.`);
    process.exit(1);
  }
  console.log('schema.graphql and docs/scopes.md match the builder.');
} else {
  for (const f of FILES) writeFileSync(f.url, f.text);
  console.log(`wrote ${FILES.map((f) => f.name).join(' and ')}`);
}
