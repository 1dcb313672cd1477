/** Debian's Chromium: `npx playwright install` cannot download browsers on these machines. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for a Chromium that stays quiet on a closed network: without the background-networking
 * flags it keeps dialling out (and being refused) while a page renders.
 */
export const QUIET_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Headless launch arguments: the quiet flags plus `--headless`. */
export const HEADLESS_CHROMIUM_ARGS = ['--headless', ...QUIET_CHROMIUM_FLAGS];

/** Where Chromium is: TALLY_CHROMIUM, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TALLY_CHROMIUM || DEFAULT_CHROMIUM_PATH;
}
