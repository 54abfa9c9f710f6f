// How large an answer may be: MAX_ANSWER_BYTES of JSON, for one answer of a query or mutation and
// for each answer of a subscription, a live query or an incremental delivery. What an operation
// costs upstream does not bound its answer: aliases of one list are read once and answered once
// each, so 30 of them turn one upstream page into 30 copies in the answer. The answer is measured
// before it is serialized, by a walk that stops once past the limit (its cost is bounded by the
// limit, not by the answer), and one over it is replaced by QUERY_TOO_COMPLEX (`answerBytes`).
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { tooComplex } from './too-complex.ts';

/** The JSON size of `value`, counted until it passes `limit` (then a figure just past it). */
export function jsonSizeWithin(value: unknown, limit: number): number {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const next = stack.pop();
    if (next === null || next === undefined) size += 4;
    else if (typeof next === 'string') size += next.length + 2;
    else if (typeof next === 'number' || typeof next === 'boolean') size += String(next).length;
    else if (Array.isArray(next)) {
      size += 2 + next.length;
      for (const item of next) stack.push(item);
    } else if (typeof next === 'object') {
      const entries = Object.entries(next as Record<string, unknown>);
      size += 2 + entries.length;
      for (const [key, item] of entries) {
        size += key.length + 3;
        stack.push(item);
      }
    }
  }
  return size;
}

/** The answer as it may go, or the refusal that replaces one over `maxBytes`. */
function bounded(result: ExecutionResult, maxBytes: number): ExecutionResult | null {
  const size = jsonSizeWithin(result.data ?? null, maxBytes);
  if (size <= maxBytes) return null;
  return { data: null, errors: [tooComplex('answerBytes', size, maxBytes)] };
}

export function useAnswerSizeLimit(maxBytes: number): Plugin {
  const onNext = ({ result, setResult }: { result: unknown; setResult: (r: ExecutionResult) => void }) => {
    const refused = bounded(result as ExecutionResult, maxBytes);
    if (refused) setResult(refused);
  };
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (result && typeof result === 'object' && Symbol.asyncIterator in result) return { onNext };
          onNext({ result, setResult });
          return undefined;
        },
      };
    },
    onSubscribe() {
      return { onSubscribeResult: () => ({ onNext }) };
    },
  };
}
