// examples/admin-page in headless Chromium (test/support/admin-page.ts), its list's search and
// order and its live health: a search typed in and sent with Enter shows only the matching
// destinations and their count, and reaches PostHog's hog function list as its `search`; the order
// "Name Z→A" puts the alphabetically last destination first; a hog function the hog watcher
// degrades (the emulator's control) arrives over destinationHealthChanged and changes its row's
// badge, the open detail's and the Health panel in the page, with no reload and no query of the
// list or the detail. Its screenshot is docs/admin-page.png with UPDATE_SCREENSHOTS=1
// (docs/clients.md shows it), test-output/admin-page.png otherwise.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AdminPageRig,
  LONG,
  pageDriver,
  screenshotPath,
  startAdminPageRig,
} from '../../support/admin-page.ts';
import type { Harness } from '../../support/harness.ts';
import { until } from '../../support/wait.ts';

const SCREENSHOT = screenshotPath('admin-page.png');
const FRAGMENT = 'webhook';
/** The page signs in to project "@current": its calls and its health poller's name it so. */
const HOG_FUNCTIONS = '/api/projects/@current/hog_functions/';
/** The seed's S3 batch export of project 1. */
const S3 = '018f0a5e-0020-7000-8000-000000000001';

const NAMES = `query($after: String) {
  project(projectId: "1") {
    destinations(first: 100, after: $after) {
      totalCount edges { node { name } } pageInfo { hasNextPage endCursor }
    }
  }
}`;
const COUNT = `query($search: String) {
  project(projectId: "1") { destinations(search: $search) { totalCount } }
}`;

/** As Project.destinations(orderBy: NAME) compares names: lowercased by code unit, then as written. */
const byName = (a: string, b: string) =>
  a.toLowerCase() === b.toLowerCase()
    ? Number(a > b) - Number(a < b)
    : Number(a.toLowerCase() > b.toLowerCase()) - Number(a.toLowerCase() < b.toLowerCase());

describe('examples/admin-page: search, order and live health', { timeout: 120_000 }, () => {
  let rig: AdminPageRig;
  let h: Harness;
  let page: Page;
  let drive: ReturnType<typeof pageDriver>;
  /** The browser's GraphQL requests over HTTP, by operation name. */
  const operations: string[] = [];

  beforeAll(async () => {
    rig = await startAdminPageRig({ DESTINATION_HEALTH_POLL_MS: '300' });
    ({ h, page } = rig);
    drive = pageDriver(page);
    // The export's newest run completed before the page's health baseline: a failure is a change.
    await control('/__control/batch-export-run', { batchExportId: S3, status: 'Completed' });
    page.on('request', (request) => {
      const body = request.method() === 'POST' ? request.postData() : undefined;
      if (body) operations.push(String((JSON.parse(body) as { operationName?: string }).operationName));
    });
    await drive.signIn(rig.site.origin, h.url);
    await drive.waitForText('#page', 'page 1 of 6');
  }, 600_000);

  afterAll(async () => {
    await rig?.close();
  });

  /** A test control of the emulator (posthog-emulator/README.md). */
  async function control(path: string, body: unknown) {
    const answer = await fetch(new URL(path, h.upstream.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.ok).toBe(true);
  }

  /** Types `text` in the search box and sends it with Enter. */
  async function search(text: string) {
    await page.click('#search', { count: 3 });
    await page.keyboard.press('Backspace');
    if (text) await page.type('#search', text);
    await page.keyboard.press('Enter');
  }

  it('searches by a name fragment: only the matching rows, their count, and PostHog asked the search', async () => {
    const expected = (await h.gql(COUNT, { search: FRAGMENT })).body.data.project.destinations.totalCount;
    expect(expected).toBeGreaterThan(0);
    h.upstream.clearRequests();
    await search(FRAGMENT);
    await until(
      async () => {
        const rows = await drive.rows();
        return (
          rows.length === expected &&
          rows.every((row) => row.name.toLowerCase().includes(FRAGMENT)) &&
          (await drive.text('#total')) === `(${expected})`
        );
      },
      `the ${expected} destinations matching “${FRAGMENT}”`,
      { withinMs: 60_000 },
    );
    expect(await drive.text('#page')).toBe('page 1 of 1');
    expect(await drive.text('#destinations h2')).toContain(`matching “${FRAGMENT}”`);
    // Every row has its health badge, with why as its title.
    const badges = await page.$$eval('#destinations tr[data-id] .health', (spans) =>
      spans.map((span) => ({ state: span.getAttribute('data-state'), title: span.getAttribute('title') })),
    );
    expect(badges).toHaveLength(expected);
    for (const badge of badges) {
      expect(badge.state).toMatch(/^(HEALTHY|DEGRADED|DISABLED|FAILING|UNKNOWN)$/);
      expect(badge.title).not.toBe('');
    }
    // The search went to PostHog's hog function list as its own `search`.
    const searched = h
      .upstreamCalls({ method: 'GET', path: HOG_FUNCTIONS })
      .filter((call) => new URLSearchParams(call.query).get('search') === FRAGMENT);
    expect(searched.length).toBeGreaterThan(0);
  });

  it('sorts by name Z→A: the alphabetically last destination first', async () => {
    const names: string[] = [];
    for (let after: string | null = null, more = true; more; ) {
      const answer = await h.gql(NAMES, { after });
      const list = answer.body.data.project.destinations;
      names.push(
        ...list.edges.map((edge: { node: { name: string | null } }) => edge.node.name ?? '(no name)'),
      );
      [after, more] = [list.pageInfo.endCursor, list.pageInfo.hasNextPage];
    }
    const last = [...names].sort(byName).at(-1)!;
    await search('');
    await page.select('#sort', '2');
    await until(
      async () => {
        const rows = await drive.rows();
        return rows.length === 20 && rows[0]!.name === last;
      },
      `“${last}” first`,
      { withinMs: 60_000 },
    );
    const shown = (await drive.rows()).map((row) => row.name);
    expect(shown).toEqual([...shown].sort(byName).reverse());
    expect(await drive.text('#total')).toBe(`(${names.length})`);
  });

  it('shows a health change live: the row’s badge, the detail’s and the Health panel, with no reload', async () => {
    await search(FRAGMENT);
    // Searched and in the order Z→A: the screenshot shows both.
    await until(async () => {
      const rows = await drive.rows();
      return rows.length > 0 && rows.every((row) => row.name.toLowerCase().includes(FRAGMENT));
    });
    const fn = [...h.upstream.store.hogFunctions.values()].find(
      (f) =>
        f.projectId === 1 &&
        f.enabled &&
        !f.deleted &&
        f.type === 'destination' &&
        /webhook/i.test(f.name ?? ''),
    )!;
    const row = (await drive.rows()).find((r) => r.name === fn.name)!;
    expect(row.health).toBe('HEALTHY');
    await page.$eval(`#destinations tr[data-id="${row.id}"] button`, (button) =>
      (button as HTMLButtonElement).click(),
    );
    await page.waitForSelector('#detail-health .health[data-state="HEALTHY"]', LONG);
    // The health poller has read the functions since the page settled: its baseline is behind it.
    h.upstream.clearRequests();
    await until(
      () => h.upstreamCalls({ path: HOG_FUNCTIONS }).filter((call) => call.status !== null).length >= 2,
      'two health polls',
      { withinMs: 60_000 },
    );
    await page.evaluate(() => {
      (window as unknown as { stillHere: boolean }).stillHere = true;
    });
    const [filesBefore, operationsBefore] = [rig.site.requested.length, operations.length];

    await control('/__control/hog-function-status', { id: fn.id, state: 2 });

    await page.waitForSelector(`#destinations tr[data-id="${row.id}"] .health[data-state="DEGRADED"]`, LONG);
    await page.waitForSelector('#detail-health .health[data-state="DEGRADED"]', LONG);
    const line = `#health li[data-id="${row.id}"][data-state="DEGRADED"]`;
    await page.waitForSelector(line, LONG);
    expect(await drive.text(line)).toContain(fn.name);
    expect(await drive.text(line)).toMatch(/healthy\s*→\s*degraded/);
    const title = await page.$eval(
      `#destinations tr[data-id="${row.id}"] .health`,
      (span) => (span as HTMLElement).title,
    );
    expect(title).toMatch(/hog watcher degraded/);
    // The same page all along, its files not fetched again and neither query sent again: the
    // subscription's answer went into Apollo's cache.
    expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    expect(rig.site.requested.length).toBe(filesBefore);
    expect(operations.slice(operationsBefore)).toEqual([]);

    // A batch export's run fails: not in the list as searched, its line shows in the Health panel.
    await control('/__control/batch-export-run', {
      batchExportId: S3,
      status: 'Failed',
      latestError: 'NoSuchBucket',
    });
    await page.waitForSelector('#health li[data-state="FAILING"]', LONG);
    const lines = await page.$$eval('#health li', (items) =>
      items.map((item) => ({ state: item.getAttribute('data-state'), text: item.textContent! })),
    );
    // Newest on top.
    expect(lines.map((l) => l.state)).toEqual(['FAILING', 'DEGRADED']);
    expect(lines[0]!.text).toContain('S3 hourly events');
    expect(lines[0]!.text).toContain('Its latest run Failed: NoSuchBucket');
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
  });
});
