/** Debian's Chromium: `npx playwright install` cannot download browsers on these machines. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Flags for a Chromium that stays quiet on a closed network: without the background-networking
 * flags it keeps dialling out (and being refused) while a page renders. `--no-sandbox`: Tally
 * runs as root on CI and in containers, where Chromium's sandbox cannot start; the page is a
 * loopback preview the user runs, and every channel out is blocked above (routes, WebSockets,
 * WebRTC UDP, DNS prefetch).
 */
export const QUIET_CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Channels context.route does not see: WebRTC's UDP (no non-proxied UDP, so no peer or
  // STUN traffic) and DNS prefetching of links the page names.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--dns-prefetch-disable',
];

/** Headless launch arguments: the quiet flags plus `--headless`. */
export const HEADLESS_CHROMIUM_ARGS = ['--headless', ...QUIET_CHROMIUM_FLAGS];

/** Where Chromium is: TALLY_CHROMIUM, else Debian's. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.TALLY_CHROMIUM || DEFAULT_CHROMIUM_PATH;
}
