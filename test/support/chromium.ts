// Debian's Chromium, headless, driven by puppeteer-core (.ci/run installs the chromium package
// when it is missing). A machine without it fails the browser tests with what to install: a
// browser test is never skipped.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Chromium {
  browser: Browser;
  close(): Promise<void>;
}

/** Starts headless Chromium with a profile of its own, removed on close. */
export async function launchChromium(): Promise<Chromium> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `No Chromium at ${CHROMIUM}: install Debian's chromium (apt-get install chromium; .ci/run does) or set CHROMIUM_PATH to a Chromium binary.`,
    );
  const profile = mkdtempSync(join(tmpdir(), 'gateway-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    userDataDir: profile,
    // As this machine's notes say: without the background-networking flags Chromium tries
    // Google's hosts at every start, and the closed network refuses them.
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
