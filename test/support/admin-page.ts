// examples/admin-page as its browser tests run it: a copy of the example in a temporary folder of
// its own (so that test files running at once never install or build over each other, and nothing
// resolves from the checkout's node_modules), installed there with `npm ci` from its own lock and
// built with its esbuild script; its dist/ served from an origin of its own; the gateway (and the
// reference upstream, posthog-2026) allowing that origin alone; headless Chromium on a page. And
// the page's driving helpers: sign in, read a selector's text, wait for it, the list's rows.
import { execFile } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Page } from 'puppeteer-core';
import { type Chromium, launchChromium } from './chromium.ts';
import { type Harness, startHarness } from './harness.ts';
import { type StaticFiles, serveStaticFiles } from './static-files.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The example in the checkout: copied from, never installed into by the tests. */
export const EXAMPLE = join(ROOT, 'examples/admin-page');
/** The key the tests sign in with: every scope (the emulator's seed). */
export const KEY = 'phx_full';
export const LONG = { timeout: 60_000 };
const run = promisify(execFile);

/** docs/<name> with UPDATE_SCREENSHOTS=1 (docs/clients.md shows it), test-output/<name> otherwise. */
export const screenshotPath = (name: string) =>
  join(ROOT, process.env.UPDATE_SCREENSHOTS ? 'docs' : 'test-output', name);

export interface BuiltPage {
  /** The copy's folder, with its node_modules and dist/. */
  folder: string;
  /** npm in the copy's folder alone: none of the npm_* settings of an `npm test` around us. */
  npm(args: string[]): Promise<void>;
  remove(): void;
}

/** Copies the example (its sources, package.json and lock), installs exactly its lock and builds it. */
export async function installAndBuild(): Promise<BuiltPage> {
  const folder = mkdtempSync(join(tmpdir(), 'admin-page-'));
  cpSync(EXAMPLE, folder, {
    recursive: true,
    filter: (source) => !/^(node_modules|dist)(\/|$)/.test(relative(EXAMPLE, source)),
  });
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  const npm = async (args: string[]) => {
    await run('npm', [...args, '--prefix', folder, '--no-audit', '--no-fund'], {
      cwd: folder,
      env: { ...env, CI: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    });
  };
  const lock = join(EXAMPLE, 'package-lock.json');
  // The first run makes the lock file (commit it); every later one installs exactly it.
  await npm([existsSync(lock) ? 'ci' : 'install']);
  if (!existsSync(lock)) copyFileSync(join(folder, 'package-lock.json'), lock);
  await npm(['run', 'build']);
  return { folder, npm, remove: () => rmSync(folder, { recursive: true, force: true }) };
}

export interface AdminPageRig {
  built: BuiltPage;
  /** The page's origin, which CORS_ORIGINS lists. */
  site: StaticFiles;
  /** The same files on another origin, which CORS_ORIGINS does not list. */
  elsewhere: StaticFiles;
  h: Harness;
  chromium: Chromium;
  page: Page;
  close(): Promise<void>;
}

/**
 * The built page served twice, the gateway in front of the posthog-2026 upstream with `env` and
 * CORS for the first origin only (each key's scopes read once, as deployed), and a Chromium page.
 */
export async function startAdminPageRig(env: Record<string, string> = {}): Promise<AdminPageRig> {
  const built = await installAndBuild();
  const site = await serveStaticFiles(join(built.folder, 'dist'));
  const elsewhere = await serveStaticFiles(join(built.folder, 'dist'));
  const h = await startHarness({
    dialect: 'posthog-2026',
    env: { CORS_ORIGINS: site.origin, KEY_SCOPES_REFRESH_MS: '300000', ...env },
  });
  const chromium = await launchChromium();
  const page = await chromium.browser.newPage();
  await page.setViewport({ width: 1500, height: 640 });
  return {
    built,
    site,
    elsewhere,
    h,
    chromium,
    page,
    close: async () => {
      await chromium.close();
      await h.close();
      await site.close();
      await elsewhere.close();
      built.remove();
    },
  };
}

/** Reading and driving the page. */
export function pageDriver(page: Page) {
  const text = (selector: string) =>
    page.$eval(selector, (element) => (element as HTMLElement).innerText).catch(() => '');
  const waitForText = (selector: string, contains: string) =>
    page.waitForFunction(
      (s, t) => (document.querySelector(s) as HTMLElement | null)?.innerText.includes(t),
      LONG,
      selector,
      contains,
    );
  const rowIds = () =>
    page.$$eval('#destinations tr[data-id]', (rows) => rows.map((row) => row.getAttribute('data-id')!));
  /** The list's rows as shown: id, name and health state. */
  const rows = () =>
    page.$$eval('#destinations tr[data-id]', (trs) =>
      trs.map((row) => ({
        id: row.getAttribute('data-id')!,
        name: row.querySelector('button')!.textContent!,
        health: row.querySelector('.health')?.getAttribute('data-state') ?? null,
      })),
    );
  /** Opens the page at `origin` and signs in to the gateway at `gatewayUrl` with `key`. */
  async function signIn(origin: string, gatewayUrl: string, key = KEY) {
    await page.goto(`${origin}/`, { waitUntil: 'load' });
    await page.waitForSelector('form.sign-in input[name=key]', LONG);
    await page.$eval('input[name=url]', (input) => {
      (input as HTMLInputElement).value = '';
    });
    await page.type('input[name=url]', gatewayUrl);
    await page.type('input[name=key]', key);
    await page.click('form.sign-in button[type=submit]');
  }
  return { text, waitForText, rowIds, rows, signIn };
}
