/**
 * Debian's chromium for browser tests, driven by playwright-core (never a downloaded browser). The
 * flags keep it off the network this machine does not have. A missing browser is a failure with a
 * clear message, never a skip.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.RGATE_CHROMIUM ?? '/usr/bin/chromium';

export const CHROMIUM_MISSING =
  `chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium; .ci/run does this) ` +
  'or point RGATE_CHROMIUM at a chromium binary. This test fails rather than skips.';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The fonts the browser sees: test/fonts/fonts.conf names the folders of the Debian font packages
 * .ci/run installs, and nothing else, so a font the machine has besides (fonts-lato, brought by
 * python3-statsmodels) cannot move a stored screenshot's pixels.
 */
export const FONTCONFIG_FILE = join(import.meta.dirname, '..', 'fonts', 'fonts.conf');

/** The browser, or undefined when chromium is not installed (tests then throw CHROMIUM_MISSING). */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) return undefined;
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ARGS,
    env: { ...process.env, FONTCONFIG_FILE },
  });
}
