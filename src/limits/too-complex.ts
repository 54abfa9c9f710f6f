// The one error every limit raises: QUERY_TOO_COMPLEX, naming the measure, its figure and the limit.
import { codedError } from '../errors/codes.ts';

export type LimitMeasure =
  | 'depth'
  | 'aliases'
  | 'directives'
  | 'tokens'
  | 'cost'
  | 'upstreamCalls'
  | 'bodyBytes'
  | 'subscriptions';

const DESCRIBE: Record<LimitMeasure, (figure: number) => string> = {
  depth: (n) => `The query is ${n} levels deep`,
  aliases: (n) => `The operation has ${n} aliases`,
  directives: (n) => `The operation has ${n} directives`,
  tokens: (n) => `The document has ${n} tokens`,
  cost: (n) => `The operation costs ${n} (a connection's first/last multiplies the cost of what is under it)`,
  upstreamCalls: (n) => `The operation may cause ${n} upstream requests`,
  bodyBytes: (n) => `The request body has ${n} bytes`,
  subscriptions: (n) => `This would be subscription number ${n}`,
};

export function tooComplex(measure: LimitMeasure, figure: number, limit: number) {
  return codedError('QUERY_TOO_COMPLEX', `${DESCRIBE[measure](figure)}; the limit is ${limit}.`, {
    measure,
    figure,
    limit,
  });
}
