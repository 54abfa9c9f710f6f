// examples/subscribe-ws.ts and examples/subscribe-sse.ts, run two ways against a gateway: as a
// user runs them (node --import tsx examples/….ts 1, the gateway's URL and key in the environment:
// graphql-ws on Node's own WebSocket), and their printActivity in this process,
// which ends the subscription after the events asked for. Each shows an entry of a write made
// through the gateway meanwhile.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { printActivity as overSse } from '../../../examples/subscribe-sse.ts';
import { printActivity as overWs } from '../../../examples/subscribe-ws.ts';
import { ROOT } from '../../docs/markdown-blocks.ts';
import { writeUntil } from '../../examples/activity-writes.ts';
import { type Harness, startHarness } from '../../support/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ env: { ACTIVITY_POLL_MS: '200' } });
});
afterAll(() => h.close());

/** Runs an example as a user would; resolves with its first line of output. */
function firstLine(file: string, url: string, children: ChildProcess[]): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', file, '1'], {
    cwd: ROOT,
    env: { ...process.env, GATEWAY_URL: url, POSTHOG_KEY: 'phx_full' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(stdout.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`${file} exited ${code} before printing: ${stderr}`)));
  });
}

describe.each([
  ['examples/subscribe-ws.ts', () => h.wsUrl, overWs],
  ['examples/subscribe-sse.ts', () => h.url, overSse],
])('%s', (file, url, printActivity) => {
  it('run as written, prints the entry of a write made meanwhile', { timeout: 30_000 }, async () => {
    const children: ChildProcess[] = [];
    try {
      const line = firstLine(file, url(), children);
      await writeUntil(h, line);
      const event = JSON.parse(await line);
      expect(event.errors).toBeUndefined();
      expect(event.data.activityAdded).toMatchObject({ activity: 'updated', itemId: '7' });
    } finally {
      for (const child of children) child.kill();
    }
  });

  it('printActivity ends after the events asked for', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      const done = printActivity(url(), 'phx_full', '1', 1);
      await writeUntil(h, done);
      await done;
      expect(log).toHaveBeenCalledTimes(1);
      expect(JSON.parse(String(log.mock.calls[0]![0])).data.activityAdded.itemId).toBe('7');
    } finally {
      log.mockRestore();
    }
  });
});
