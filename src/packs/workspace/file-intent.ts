import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { ToolContext } from '../../core/tool.js';
import type { BeforeRenameIntent } from './atomic-write.js';

/**
 * Records, committed, that a call is about to change these files (relative paths, as its
 * effects key them). A process killed after the change leaves this intent without an outcome
 * for `tally runs show` and the verdict; when it cannot be committed the call makes no change.
 */
export async function intendFileChange(
  call: ToolContext,
  action: string,
  paths: string[],
  details?: Record<string, unknown>,
): Promise<void> {
  await call.recordIntent?.({
    action,
    resources: paths.map((key) => ({ space: 'file', key })),
    ...(details ? { details } : {}),
  });
}

/**
 * The intent of an atomic write, recorded once the new content waits under its temporary name:
 * the content's sha256 and size (what the file holds if the rename happened) and the
 * temporary file's name (what is left over if it did not).
 */
export function intendWrite(
  call: ToolContext,
  path: string,
  content: Buffer | string,
): BeforeRenameIntent | undefined {
  if (!call.recordIntent) return undefined;
  return (temporary) =>
    intendFileChange(call, 'write', [path], {
      sha256: createHash('sha256').update(content).digest('hex'),
      bytes: Buffer.byteLength(content),
      temporary: basename(temporary),
    });
}
