/** Gate payloads carry a tool's input (a Write's whole content): generous, but bounded. */
export const MAX_HOOK_PAYLOAD_BYTES = 16 * 1024 * 1024;
/** Claude Code writes the payload and closes stdin at once; a host that does not is not waited on. */
export const HOOK_STDIN_TIMEOUT_MS = 10_000;

/**
 * Reads a hook's stdin within a size cap and a deadline. Past either it stops reading and says
 * why (`problem`), so the hook can release in bounded time whatever it is fed.
 */
export function readHookStdin(
  stdin: NodeJS.ReadStream = process.stdin,
  limits: { maxBytes?: number; timeoutMs?: number } = {},
): Promise<{ text: string; problem?: string }> {
  const maxBytes = limits.maxBytes ?? MAX_HOOK_PAYLOAD_BYTES;
  const timeoutMs = limits.timeoutMs ?? HOOK_STDIN_TIMEOUT_MS;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (problem?: string) => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.removeAllListeners('end');
      stdin.removeAllListeners('error');
      if (problem) stdin.destroy();
      resolve(problem ? { text: '', problem } : { text: Buffer.concat(chunks).toString('utf8') });
    };
    const timer = setTimeout(() => finish(`stdin was not closed within ${timeoutMs} ms`), timeoutMs);
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) finish(`the payload is over ${maxBytes} bytes`);
      else chunks.push(chunk);
    });
    stdin.on('end', () => finish());
    stdin.on('error', (error) => finish(`stdin failed: ${error.message}`));
  });
}
