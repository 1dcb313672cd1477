import { z } from 'zod';
import { defineTool } from '../../../core/tool.js';
import { writeFileAtomic } from '../atomic-write.js';
import { fileEffect, priorFile } from '../file-effects.js';
import { evidenceVia, readBackEvidence } from '../file-evidence.js';
import { intendWrite } from '../file-intent.js';
import type { WorkspaceContext } from './workspace-context.js';

/**
 * The longest written content the ledger keeps; a longer one is kept as its length only. The
 * entry is committed before the answer goes out, so every character is paid on each write
 * (redacted, then a few more pages in the commit: 4 KB cost about 0.1 ms, issue 22); what was
 * written is the evidence's size and sha256, read back from disk.
 */
export const LEDGER_CONTENT_CHARS = 512;

export function fsWrite(context: WorkspaceContext) {
  return defineTool({
    name: 'fs_write',
    description:
      'Create or replace a file in the project (atomically; parent directories are created). Returns the relative path, bytes and sha256 read back from disk, and whether the file was created.',
    inputSchema: z.object({
      path: z.string().describe('Path relative to the project root'),
      content: z.string(),
    }),
    outputSchema: z.object({
      ok: z.boolean(),
      path: z.string(),
      bytes: z.number(),
      sha256: z.string(),
      created: z.boolean(),
    }),
    annotations: { destructive: true, idempotent: true },
    target: (input) => input.path,
    ledgerInput: ({ path, content }) =>
      content.length <= LEDGER_CONTENT_CHARS
        ? { path, content }
        : // No head of it: a cut can split a secret the ledger would redact only whole.
          { path, contentChars: content.length },
    execute: async (input, call) => {
      const resolved = await context.root.resolve(input.path);
      // What the write replaces, for judging the turn by content (a rewrite with the same bytes
      // is no change); its open also gives the mode the new file keeps.
      const prior = resolved.exists ? await priorFile(resolved.absolute) : { state: null };
      // Encoded once: hashed for the intent and written from the same bytes.
      const data = Buffer.from(input.content, 'utf8');
      await writeFileAtomic(
        context.root,
        resolved,
        data,
        context.writeHooks,
        intendWrite(call, resolved.relative, data),
        prior.mode === undefined ? undefined : { mode: prior.mode },
      );
      const evidence = await readBackEvidence(resolved.absolute, resolved.relative);
      return {
        result: { ok: true, path: resolved.relative, ...evidence, created: !resolved.exists },
        evidence: {
          effects: [
            fileEffect(resolved.exists ? 'updated' : 'created', resolved.relative, evidence, {}, prior.state),
          ],
          via: evidenceVia('fs_write', resolved.relative, evidence),
          ...evidence,
        },
      };
    },
  });
}
