import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { TallyError } from '../../../core/errors.js';

export class BrowserError extends TallyError {}

/** Debian's Chromium; `npx playwright install` cannot download browsers on these machines. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Where Chromium is: TALLY_CHROMIUM, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TALLY_CHROMIUM || DEFAULT_CHROMIUM;
}

/** Chromium through playwright-core, headless unless asked (a person watching needs a display). */
export async function launchChromium(options: {
  headless: boolean;
  env?: NodeJS.ProcessEnv;
}): Promise<Browser> {
  const executablePath = chromiumPath(options.env);
  if (!existsSync(executablePath))
    throw new BrowserError(
      'BROWSER_NOT_FOUND',
      `No Chromium at ${executablePath}. Install it (apt-get install -y chromium) or set TALLY_CHROMIUM to its path.`,
      { executablePath },
    );
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath,
    headless: options.headless,
    args: options.headless ? ['--headless', ...QUIET_FLAGS] : QUIET_FLAGS,
  });
}

/** Headed only when a person can see it: a display and no script driving the page. */
export function wantsHeadless(options: {
  script?: string;
  headless?: boolean;
  env?: NodeJS.ProcessEnv;
}): boolean {
  if (options.headless !== undefined) return options.headless;
  const env = options.env ?? process.env;
  return Boolean(options.script) || !(env.DISPLAY || env.WAYLAND_DISPLAY);
}
