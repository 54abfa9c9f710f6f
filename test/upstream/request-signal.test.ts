// A wait on a request's signal (retry backoff, a key's budget) ends when the signal aborts, and
// never starts on one that has aborted already: the request is over, whatever the wait was for.
import { describe, expect, it } from 'vitest';
import { RequestSignal, sleep } from '../../src/upstream/request-signal.ts';

describe('sleep on a request signal', () => {
  it('ends when the signal aborts, and at once when it had aborted before', async () => {
    const waiting = new RequestSignal();
    const woken = sleep(60_000, waiting);
    waiting.abort(new Error('client gone'));
    await woken;
    expect(waiting.listenerCount('abort')).toBe(0);
    // A minute's wait on an aborted signal resolves now (else the test's own timeout fails it).
    const aborted = new RequestSignal();
    aborted.abort(new Error('deadline'));
    await sleep(60_000, aborted);
    expect(aborted.listenerCount('abort')).toBe(0);
  });
});
