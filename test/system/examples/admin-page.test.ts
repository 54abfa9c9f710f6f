// examples/admin-page in headless Chromium, as a frontend team would run it: its own install
// (`npm ci` in a copy of the folder, never the checkout's node_modules or lock), its typecheck and
// its esbuild bundle, served by a static server of its own, so that every call to the gateway is
// cross-origin and passes only because CORS_ORIGINS lists the page's origin
// (test/support/admin-page.ts). A user signs in with a key (the viewer query), pages the
// destinations forward and back, pauses a plugin config and a batch export, and sees each change
// arrive in the live feed; the key is in no storage, URL or bundle. Its screenshot goes to
// test-output/admin-page-paused.png; docs/admin-page.png (docs/clients.md) is
// admin-page-live.test.ts's.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminPageRig,
  KEY,
  LONG,
  pageDriver,
  ROOT,
  startAdminPageRig,
} from '../../support/admin-page.ts';
import type { Harness } from '../../support/harness.ts';
import type { StaticFiles } from '../../support/static-files.ts';
import { until } from '../../support/wait.ts';

const SCREENSHOT = join(ROOT, 'test-output/admin-page-paused.png');

const hashOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

describe('examples/admin-page in headless Chromium', { timeout: 120_000 }, () => {
  let rig: AdminPageRig;
  let h: Harness;
  let site: StaticFiles;
  /** The same files on another origin, which CORS_ORIGINS does not list. */
  let elsewhere: StaticFiles;
  let page: Page;
  let drive: ReturnType<typeof pageDriver>;
  const rootLock = hashOf(join(ROOT, 'package-lock.json'));
  const browserRequests: string[] = [];

  beforeAll(async () => {
    rig = await startAdminPageRig({ ACTIVITY_POLL_MS: '300' });
    ({ h, site, elsewhere, page } = rig);
    drive = pageDriver(page);
    page.on('request', (request) => browserRequests.push(request.url()));
  }, 600_000);

  afterAll(async () => {
    await rig?.close();
  });

  const text = (selector: string) => drive.text(selector);
  const waitForText = (selector: string, contains: string) => drive.waitForText(selector, contains);
  const rowIds = () => drive.rowIds();
  const signIn = (origin: string, key = KEY) => drive.signIn(origin, h.url, key);

  it('installs in its own folder: the checkout’s lock is untouched, and the page typechecks', async () => {
    expect(hashOf(join(ROOT, 'package-lock.json'))).toBe(rootLock);
    expect(existsSync(join(rig.built.folder, 'node_modules/react'))).toBe(true);
    expect(existsSync(join(ROOT, 'node_modules/react'))).toBe(false);
    await rig.built.npm(['run', 'typecheck']);
    // The bundle holds no key and no gateway address: both are typed in at sign-in.
    const bundle = readFileSync(join(rig.built.folder, 'dist/app.js'), 'utf8');
    expect(bundle).not.toMatch(/phx_[a-z]/);
    expect(bundle).not.toContain(h.url);
  });

  it('from an origin CORS_ORIGINS does not list, sign-in says why it cannot reach the gateway', async () => {
    await signIn(elsewhere.origin);
    await waitForText('form.sign-in .error', 'CORS_ORIGINS');
    expect(await text('form.sign-in .error')).toContain(`does its CORS_ORIGINS list ${elsewhere.origin}?`);
    // The browser stopped at the preflight: PostHog was asked nothing.
    expect(h.upstreamCalls()).toEqual([]);
  });

  it('refuses a key PostHog refuses, on the sign-in form', async () => {
    await signIn(site.origin, 'phx_nobody_issued');
    await waitForText('form.sign-in .error', 'UNAUTHENTICATED');
    expect(await page.$('#viewer')).toBeNull();
  });

  it('signs in with the viewer query, showing what the key may do', async () => {
    h.upstream.clearRequests();
    await signIn(site.origin);
    await waitForText('#viewer', 'Key scopes: *');
    expect(await text('#viewer')).toContain('projects: any');
    expect(h.upstreamCalls({ path: '/api/personal_api_keys/@current/' })).toHaveLength(1);
  });

  it('pages the destinations forward and back', async () => {
    await waitForText('#page', 'page 1 of 6');
    const first = await rowIds();
    expect(first).toHaveLength(20);
    await page.click('#destinations p button:last-of-type');
    await waitForText('#page', 'page 2 of 6');
    await until(async () => (await rowIds())[0] !== first[0], 'the second page', { withinMs: 60_000 });
    const second = await rowIds();
    expect(second).toHaveLength(20);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    await page.click('#destinations p button:first-of-type');
    await waitForText('#page', 'page 1 of 6');
    await until(async () => (await rowIds())[0] === first[0], 'the first page again', { withinMs: 60_000 });
    expect(await rowIds()).toEqual(first);
    // The key's scopes were read once, at sign-in, for every request since.
    expect(h.upstreamCalls({ path: '/api/personal_api_keys/@current/' })).toHaveLength(1);
  });

  /** Lists one kind, opens its first enabled destination, pauses it, and waits for its feed entry. */
  async function pauseFirstEnabled(option: string, kind: string, activity: string) {
    await page.select('#destinations select', option);
    // Until the list is of that kind alone (the list before it stays shown while it loads).
    await until(
      () =>
        page.$$eval(
          '#destinations tr[data-id]',
          (rows, k) =>
            rows.length > 0 &&
            rows.every((row) => row.querySelector('td.kind')!.textContent!.startsWith(k)) &&
            rows.some((row) => row.querySelector('td.on')),
          kind,
        ),
      `a list of ${kind}s with one enabled`,
      { withinMs: 60_000 },
    );
    const row = (await page.$('#destinations tr[data-id]:has(td.on)'))!;
    const id = (await row.evaluate((element) => element.getAttribute('data-id')))!;
    const name = await row.$eval('button', (button) => button.textContent!);
    await row.$eval('button', (button) => (button as HTMLButtonElement).click());
    await waitForText('#detail h2', name);
    await page.waitForSelector('#detail #toggle', LONG);
    await waitForText('#detail #state', 'enabled');
    // The request log only: the upstream's data (and its activity ids) go on.
    h.upstream.clearRequests();
    await page.click('#detail #toggle');
    await waitForText('#detail #state', 'paused');
    await waitForText(`#destinations tr[data-id="${id}"]`, 'paused');
    // The entry's itemId: a config's integer id, a batch export's UUID (the global id's last part).
    const itemId = Buffer.from(id, 'base64').toString('utf8').split(':')[2]!;
    await page.waitForSelector(`#feed li[data-item-id="${itemId}"][data-activity="${activity}"]`, LONG);
    return { id, itemId };
  }

  it('pauses a plugin config (updateDestinationConfig), and the live feed shows it', async () => {
    const { itemId } = await pauseFirstEnabled('2', 'plugin config', 'disabled');
    const patches = h.upstreamCalls({ method: 'PATCH' });
    expect(patches.map((call) => call.path)).toEqual([
      `/api/projects/1/pipeline_destination_configs/${itemId}/`,
    ]);
  });

  it('pauses a batch export (pauseBatchExport), shows its runs, and the live feed shows it', async () => {
    const { itemId } = await pauseFirstEnabled('3', 'batch export', 'updated');
    expect(await page.$$('#detail #runs tr')).not.toHaveLength(0);
    const posts = h.upstreamCalls({ method: 'POST' });
    expect(posts.map((call) => call.path)).toEqual([`/api/projects/1/batch_exports/${itemId}/pause/`]);
    await waitForText('#detail #detail-activity', 'updated');
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  });

  it('keeps the key in memory only, and talks to its own origin and the gateway alone', async () => {
    const stored = await page.evaluate(() =>
      JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie }),
    );
    expect(stored).not.toContain(KEY);
    expect(page.url()).not.toContain(KEY);
    expect([...site.requested, ...elsewhere.requested].join(' ')).not.toContain(KEY);
    const gateway = new URL(h.url).origin;
    const others = browserRequests.filter(
      (url) => ![site.origin, elsewhere.origin, gateway].includes(new URL(url).origin),
    );
    expect(others).toEqual([]);
    await page.click('header button');
    await page.waitForSelector('form.sign-in input[name=key]', LONG);
    expect(await page.$eval('input[name=key]', (input) => (input as HTMLInputElement).value)).toBe('');
  });
});
