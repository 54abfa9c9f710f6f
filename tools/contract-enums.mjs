// The contract's enum values, checked where the contract lives: beside the checkout, in CI
// (`npm run schema:check`). The contract checker compares fields only (contract-enum-shim.mjs), so
// this checks that schema.graphql serves every value of every enum each contract file declares.
// Usage: node tools/contract-enums.mjs <contract.graphql>... <schema.graphql>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const { buildSchema } = require('graphql');

const files = process.argv.slice(2);
const schema = buildSchema(readFileSync(files.at(-1), 'utf8'));
const missing = [];
let checked = 0;
for (const file of files.slice(0, -1)) {
  const contract = readFileSync(file, 'utf8');
  for (const [, name, body] of contract.matchAll(/enum (\w+) \{([^}]*)\}/g)) {
    const served = new Set(
      schema
        .getType(name)
        ?.getValues?.()
        .map((value) => value.name) ?? [],
    );
    for (const value of body.split(/\s+/).filter((v) => /^[A-Z_]+$/.test(v))) {
      checked++;
      if (!served.has(value)) missing.push(`${name}.${value}`);
    }
  }
}
if (missing.length > 0) {
  console.error(`contract enums: not served: ${missing.join(', ')}`);
  process.exit(1);
}
console.log(`contract enums: ${checked} of ${checked} values served`);
