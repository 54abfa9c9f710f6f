// GraphiQL in a real browser: Debian's Chromium, headless, driven by puppeteer-core
// (test/support/chromium.ts; .ci/run installs the chromium package when it is missing). The page
// opens with the demo key in its Headers tab (and stores no key), says which upstream is behind
// it, loads nothing from outside this host, runs the example query into the result pane, and shows
// a subscription's event after a mutation; in front of another upstream, a returning browser sends
// no key it stored before. The screenshot goes to test-output/ (git-ignored); docs/graphiql.png in
// the README is one of them, committed once.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Chromium, launchChromium } from '../../support/chromium.ts';
import { type Harness, startHarness } from '../../support/harness.ts';
import { until } from '../../support/wait.ts';

const OUTPUT = fileURLToPath(new URL('../../../test-output/', import.meta.url));
const DEMO_KEY = 'phx_full';

describe('GraphiQL in headless Chromium', { timeout: 90_000 }, () => {
  let h: Harness;
  /** A gateway in front of an upstream that is not the demo: no key prefilled. */
  let real: Harness;
  let browser: Browser;
  let page: Page;
  let chromium: Chromium;
  const requested: string[] = [];

  beforeAll(async () => {
    h = await startHarness({ env: { GATEWAY_GRAPHIQL_DEMO_KEY: DEMO_KEY, ACTIVITY_POLL_MS: '60000' } });
    real = await startHarness();
    mkdirSync(OUTPUT, { recursive: true });
    chromium = await launchChromium();
    browser = chromium.browser;
    page = await browser.newPage();
    await page.setViewport({ width: 1400, height: 900 });
    page.on('request', (request) => requested.push(request.url()));
  }, 60_000);

  afterAll(async () => {
    await chromium?.close();
    await h?.close();
    await real?.close();
  });

  /** The result pane's text (its editor writes spaces as no-break spaces). */
  const resultText = () =>
    page
      .$eval('.graphiql-response', (element) => (element as HTMLElement).innerText.replace(/\u00a0/g, ' '))
      .catch(() => '');

  async function waitForResult(contains: string): Promise<string> {
    await page.waitForFunction(
      (text) =>
        (document.querySelector('.graphiql-response') as HTMLElement | null)?.innerText.includes(text),
      { timeout: 30_000 },
      contains,
    );
    return resultText();
  }

  it('opens with the demo key in its headers, runs the example query into the result pane, and loads nothing from elsewhere', async () => {
    await page.goto(h.url, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30_000 });
    // The line above GraphiQL: the embedded upstream, its dialect, the demo keys, the docs.
    const line = await page.$eval('#gateway-upstream', (element) => (element as HTMLElement).innerText);
    expect(line).toContain('Demo: the embedded reference upstream (spec dialect, made-up data)');
    expect(line).toContain('phx_read (plugin:read, activity_log:read)');
    expect(await page.$eval('#gateway-upstream a', (a) => (a as HTMLAnchorElement).href)).toBe(
      'https://posthog.com/docs/api',
    );
    // The Headers tab shows the demo key (its editor writes spaces as no-break spaces).
    const [headersTab] = await page.$$('xpath/.//button[normalize-space(.)="Headers"]');
    await headersTab!.click();
    await page.waitForFunction(
      (key) =>
        [...document.querySelectorAll<HTMLElement>('.graphiql-editor-tool')].some((tool) =>
          tool.innerText.replace(/\u00a0/g, ' ').includes(key),
        ),
      { timeout: 10_000 },
      `"Authorization":"Bearer ${DEMO_KEY}"`,
    );
    await page.click('.graphiql-execute-button');
    const result = await waitForResult('"destinations"');
    // The pane is an editor that renders only the lines in view: the top of the answer.
    expect(result).toMatch(/^\{\s*"data": \{\s*"project": \{/);
    expect(result).toContain('"totalCount": 155');
    expect(result).not.toContain('"errors"');
    await page.screenshot({ path: join(OUTPUT, 'graphiql.png') });
    // GraphiQL keeps its tabs in localStorage (after a 500 ms debounce), never their headers.
    await page.waitForFunction(() => localStorage.getItem('graphiql:tabState')?.includes('CombinedView'), {
      timeout: 10_000,
    });
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain(DEMO_KEY);

    const origin = new URL(h.url).origin;
    const elsewhere = requested.filter((url) => !url.startsWith(origin) && !/^(data|blob):/.test(url));
    expect(elsewhere).toEqual([]);
  });

  it('in front of another upstream, says which and sends no key a returning browser stored before', async () => {
    // What the page stored before headers stopped being persisted: the demo key, in a tab and alone.
    const OLD_HEADERS = JSON.stringify({ Authorization: `Bearer ${DEMO_KEY}` });
    await page.goto(real.url, { waitUntil: 'load' });
    await page.evaluate((headers) => {
      const query = 'query Old { project(projectId: "1") { name } }';
      const tab = { id: 'old', hash: null, title: 'Old', query, variables: null, headers };
      const state = { tabs: [{ ...tab, operationName: 'Old', response: null }], activeTabIndex: 0 };
      localStorage.setItem('graphiql:tabState', JSON.stringify(state));
      localStorage.setItem('graphiql:query', query);
      localStorage.setItem('graphiql:headers', headers);
      localStorage.setItem('graphiql:shouldPersistHeaders', 'true');
    }, OLD_HEADERS);
    await page.reload({ waitUntil: 'load' });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30_000 });
    const line = await page.$eval('#gateway-upstream', (element) => (element as HTMLElement).innerText);
    expect(line).toContain(`Upstream: ${new URL(real.upstream.url).origin}`);
    expect(line).not.toContain('phx_');

    const sent: Record<string, string>[] = [];
    const onRequest = (request: { method(): string; url(): string; headers(): Record<string, string> }) => {
      if (request.method() === 'POST' && request.url().startsWith(real.url)) sent.push(request.headers());
    };
    page.on('request', onRequest);
    await page.click('.graphiql-execute-button');
    const result = await waitForResult('UNAUTHENTICATED');
    page.off('request', onRequest);
    expect(sent.length).toBeGreaterThan(0);
    for (const headers of sent) expect(headers.authorization).toBeUndefined();
    // One refusal for the request, saying how to send a key.
    expect(result.match(/UNAUTHENTICATED/g)).toHaveLength(1);
    expect(result).toContain('Authorization: Bearer <key>');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage }))).not.toContain(DEMO_KEY);
  });

  it('shows a subscription event after a mutation', async () => {
    const subscription = 'subscription { activityAdded(projectId: "1") { activity scope itemId } }';
    await page.goto(`${h.url}?query=${encodeURIComponent(subscription)}`, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30_000 });
    h.reset();
    await page.click('.graphiql-execute-button');
    // Wait until the poller has its baseline, then write through the gateway with the same key.
    await until(
      () => h.upstreamCalls().some((c) => c.path.endsWith('/activity_log/')),
      'the poller’s baseline',
    );
    const created = await h.gql(
      `mutation($input: CreateDestinationConfigInput!) { createDestinationConfig(input: $input) { destinationConfig { databaseId } } }`,
      { input: { projectId: '1', plugin: 1, order: 60, name: 'From the browser test' } },
      DEMO_KEY,
    );
    const databaseId = created.body.data.createDestinationConfig.destinationConfig.databaseId;
    const result = await waitForResult(`"${databaseId}"`);
    expect(result).toContain('"created"');
    await page.screenshot({ path: join(OUTPUT, 'graphiql-subscription.png') });
  });

  it('shows the parts of a @defer query as they come, merged', async () => {
    const deferred =
      'query Deferred { project(projectId: "1") { name ... @defer { activityLog(first: 1) { edges { node { activity } } } } } }';
    await page.goto(`${h.url}?query=${encodeURIComponent(deferred)}`, { waitUntil: 'load' });
    await page.waitForSelector('.graphiql-execute-button', { timeout: 30_000 });
    await page.click('.graphiql-execute-button');
    const result = await waitForResult('"activityLog"');
    expect(result).toContain('"name": "Hedgebox (production)"');
    expect(result).toContain('"activity"');
  });
});
