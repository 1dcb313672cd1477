import { resolve } from 'node:path';
import { captureSession } from '../../packs/http/browser/capture-session.js';
import { STOP_SIGNALS } from '../stop-signals.js';
import { EXIT } from './exit-codes.js';

interface CaptureFlags {
  out: string;
  script?: string;
  headless?: boolean;
  keepSecrets?: boolean;
}

/** `tally capture URL --out FILE.har [--script login.mjs]`: a browser session recorded as a redacted HAR. */
export default async function captureCommand(url: string, options: CaptureFlags): Promise<number> {
  if (!options.script && !options.headless && !(process.env.DISPLAY || process.env.WAYLAND_DISPLAY))
    process.stderr.write(
      'No display: the browser runs headless, so only what the page does on load is recorded (until it settles, at most 15 s). Pass --script to drive it.\n',
    );
  else if (!options.script && !options.headless)
    process.stderr.write('Use the app in the browser window; close it to save the HAR.\n');
  // Ctrl-C, SIGTERM or a closed terminal ends the session and saves what was recorded, instead of dying mid-write.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  for (const signal of STOP_SIGNALS) process.once(signal, onSignal);
  let result: Awaited<ReturnType<typeof captureSession>>;
  try {
    result = await captureSession({
      url,
      out: resolve(options.out),
      signal: stop.signal,
      ...(options.script ? { script: options.script } : {}),
      ...(options.headless ? { headless: true } : {}),
      ...(options.keepSecrets ? { keepSecrets: true } : {}),
    });
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  }
  // Secrets are redacted, so the HAR's session cannot be replayed: fish needs a login of its own.
  const login = options.script ? `browser:${options.script}` : 'LOGIN.json';
  process.stdout.write(
    `Recorded ${result.entries} requests into ${result.out}${options.keepSecrets ? ' (secrets KEPT: do not share it)' : ' (secrets redacted)'}.\nNext: tally fish "2 suites with 3 tests each" --captures ${result.out} --base-url ${new URL(url).origin} --login ${login}\n`,
  );
  return stop.signal.aborted ? EXIT.interrupted : EXIT.ok;
}
