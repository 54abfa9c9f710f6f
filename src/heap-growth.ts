// How fast V8 lets the old generation grow: one factor, set once as the process starts.
//
// After a spell of low allocation (a gateway between bursts of traffic) V8's memory reducer
// compacts the heap and shrinks it. Its growth under the next load is then "slow": each
// mark-compact sets the next limit only a little above what survived, until the old generation
// has grown by a fixed amount since the reduction. A gateway's old generation is small and
// steady under load (its in-flight operations), so it can stay in that state for minutes,
// collecting far more often and spending more CPU per operation, by chance (docs/performance.md).
//
// A fixed factor (V8's --heap-growing-percent, which it reads at each mark-compact and so can be
// set after start-up) takes the chance away. 2.5 rather than V8's own up to 4.0: a smaller peak
// heap for no CPU that shows (docs/performance.md, "What each setting changes").
// HEAP_GROWING_PERCENT sets it (150 is 2.5x); 0 leaves V8's own growth, and so does the flag
// given to node itself on its command line, which wins (node refuses it in NODE_OPTIONS).
//
// As deployed, node runs with --no-memory-reducer (package.json's start, docs/operating.md): the
// reducer also dropped the optimized code in every idle spell. Its slow state then never comes,
// and the fixed factor is what keeps the heap under load smaller than V8's 4.0x would; it still
// guards a gateway started without that flag, which cannot be set from here (V8 reads it only as
// the heap is made).
import { setFlagsFromString } from 'node:v8';

const FLAG = '--heap-growing-percent';

/** `nodeArguments`: what node itself was given (process.execArgv). Returns whether the factor was set here. */
export function setHeapGrowth(percent: number, nodeArguments: readonly string[]): boolean {
  const givenToNode = nodeArguments.some((arg) => arg.replaceAll('_', '-').startsWith(FLAG));
  if (percent === 0 || givenToNode) return false;
  setFlagsFromString(`${FLAG}=${percent}`);
  return true;
}
