// `npm run schema:print` writes schema.graphql from the builder; `npm run schema:check` fails
// when the committed file differs from what the builder prints.
import { readFileSync, writeFileSync } from 'node:fs';
import { printedSchema } from './index.ts';

const file = new URL('../../schema.graphql', import.meta.url);
const printed = printedSchema();

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (committed !== printed) {
    console.error('schema.graphql is stale: run `npm run schema:print` and commit the result.');
    process.exit(1);
  }
  console.log('schema.graphql matches the builder.');
} else {
  writeFileSync(file, printed);
  console.log('wrote schema.graphql');
}
