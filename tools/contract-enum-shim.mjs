// The contract checker CI runs beside the checkout reads every contract type's fields, and an enum has none:
// since schema-contract-batch-exports.graphql declares `enum DestinationKind`, the checker threw
// "type.getFields is not a function" before checking anything. Loaded with --import before it,
// this gives enums an empty field map (the checker compares fields, not enum values), and
// contract-enums.mjs checks the contract's enum values.
import { createRequire } from 'node:module';
import { join } from 'node:path';

const require = createRequire(join(process.cwd(), 'package.json'));
const { GraphQLEnumType } = require('graphql');
GraphQLEnumType.prototype.getFields ??= () => ({});
