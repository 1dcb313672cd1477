import { DEMO_EMAIL, DEMO_PASSWORD, startDemoApp } from '../../demo-app/server.js';
import { EXIT } from './exit-codes.js';

/** Starts the demo target app in the foreground until interrupted. */
export default async function demoAppCommand(options: { port: string; host: string }): Promise<number> {
  const app = await startDemoApp({ port: Number(options.port), host: options.host });
  process.stdout.write(
    `Demo app on ${app.url} — sign in as ${DEMO_EMAIL} / ${DEMO_PASSWORD}. Ctrl-C to stop.\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await app.close();
  return EXIT.ok;
}
