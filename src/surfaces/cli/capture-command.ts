import { resolve } from 'node:path';
import { captureSession } from '../../packs/http/browser/capture-session.js';
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
      'No display: the browser runs headless, so only what the page does on load is recorded. Pass --script to drive it.\n',
    );
  else if (!options.script && !options.headless)
    process.stderr.write('Use the app in the browser window; close it to save the HAR.\n');
  const result = await captureSession({
    url,
    out: resolve(options.out),
    ...(options.script ? { script: options.script } : {}),
    ...(options.headless ? { headless: true } : {}),
    ...(options.keepSecrets ? { keepSecrets: true } : {}),
  });
  process.stdout.write(
    `Recorded ${result.entries} requests into ${result.out}${options.keepSecrets ? ' (secrets KEPT: do not share it)' : ' (secrets redacted)'}.\nNext: tally fish "2 suites with 3 tests each" --captures ${result.out} --base-url ${new URL(url).origin}\n`,
  );
  return EXIT.ok;
}
