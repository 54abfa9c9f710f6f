// How fast V8 lets the old generation grow: one factor, set once as the process starts.
//
// After a spell of low allocation (a gateway between bursts of traffic) V8's memory reducer
// compacts the heap and shrinks it. Its growth under the next load is then "slow": each
// mark-compact sets the next limit at 1.3x what survived, until the old generation's committed
// memory is 10 MB above what it was at the reduction. A gateway's old generation is small and
// steady under load (its in-flight operations, 20-25 MB), so it can stay in that state for
// minutes: a mark-compact every ~0.35 s instead of every ~1.5 s, and 1.3-1.6x the CPU per
// operation on a page of 100 configs (`--trace-gc`: 13-16 mark-compacts in a 5 s round against
// 3). Whether a round ran slow was chance, for the gateway and bare yoga alike.
//
// A fixed factor (V8's --heap-growing-percent, which it reads at each mark-compact and so can be
// set after start-up) takes the chance away. 2.5 rather than the 4.0 V8 chose under load here:
// it cost no measurable CPU (a mark-compact of this heap is ~10 ms) and held 35-40 MB less peak
// RSS. HEAP_GROWING_PERCENT sets it (150 is 2.5x); 0 leaves V8's own growth, and so does the flag
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
