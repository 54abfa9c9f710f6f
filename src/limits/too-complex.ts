// The one error every limit raises: QUERY_TOO_COMPLEX, naming the measure, its figure and the limit.
import { codedError } from '../errors/codes.ts';
import type { LimitAdvice } from './estimate.ts';

export type LimitMeasure =
  | 'depth'
  | 'aliases'
  | 'directives'
  | 'tokens'
  | 'cost'
  | 'upstreamCalls'
  | 'bodyBytes'
  | 'subscriptions'
  | 'introspectionDepth'
  | 'introspectionAliases'
  | 'introspectionBytes'
  | 'answerBytes';

const DESCRIBE: Record<LimitMeasure, (figure: number) => string> = {
  depth: (n) => `The query is ${n} levels deep`,
  aliases: (n) => `The operation has ${n} aliases`,
  directives: (n) => `The operation has ${n} directives`,
  tokens: (n) => `The document has ${n} tokens`,
  cost: (n) => `The operation costs ${n} (a connection's first/last multiplies the cost of what is under it)`,
  upstreamCalls: (n) => `The operation may cause ${n} upstream requests`,
  bodyBytes: (n) => `The request body has ${n} bytes`,
  subscriptions: (n) => `This would be subscription number ${n}`,
  introspectionDepth: (n) => `The introspection under __schema or __type is ${n} levels deep`,
  introspectionAliases: (n) => `The introspection under __schema or __type has ${n} aliases`,
  // Counted until it passes the limit: the figure is where counting stopped.
  introspectionBytes: (n) => `The introspection answer would be at least ${n} bytes of JSON`,
  answerBytes: (n) =>
    `The answer would be at least ${n} bytes of JSON (each alias of a list is answered in full; select fewer fields, smaller pages or fewer aliases)`,
};

export function tooComplex(
  measure: LimitMeasure,
  figure: number,
  limit: number,
  advice?: LimitAdvice | null,
) {
  return codedError(
    'QUERY_TOO_COMPLEX',
    `${DESCRIBE[measure](figure)}; the limit is ${limit}.${adviceText(advice)}`,
    {
      measure,
      figure,
      limit,
      ...(advice ? { advice } : {}),
    },
  );
}

/** " Most of it is `project.destinations` (first: 50); with first: 39 there it fits." */
function adviceText(advice: LimitAdvice | null | undefined): string {
  if (!advice) return '';
  const where = `\`${advice.path}\` (${advice.argument}: ${advice.size})`;
  return advice.fits === null
    ? ` Most of it is ${where}, and no ${advice.argument} there is small enough alone: select fewer fields under it, or split the operation.`
    : ` Most of it is ${where}; with ${advice.argument}: ${advice.fits} there it fits.`;
}

/**
 * The run-time backstop: the operation was priced within the limit, but the upstream's data (a
 * project's lists) needed more requests than that. No change of the query helps, so the error
 * says so, with its own reason.
 */
export function upstreamTooLarge(needed: number, limit: number) {
  return codedError(
    'QUERY_TOO_COMPLEX',
    `The upstream's data needed more than ${limit} requests for this one operation (request ${needed} was refused): the lists it reads are larger than one request may read, whatever the query asks.`,
    { measure: 'upstreamCalls', figure: needed, limit, reason: 'UPSTREAM_DATA_TOO_LARGE' },
  );
}
