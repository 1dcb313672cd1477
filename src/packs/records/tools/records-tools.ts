import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ClaimResolver } from '../../../core/agent/claims.js';
import { defineTool, type ToolDefinition } from '../../../core/tool.js';
import { catRecords, normalizeRecordPath } from '../cat-records.js';
import { statedCommands } from '../extract-commands.js';
import { parseRecord } from '../parse-record.js';
import { type FailureLogMemo, recall } from '../recall.js';
import type { RecordSource } from '../record-query.js';

export interface RecordsToolContext {
  root: string;
  source: RecordSource;
}

/** Claims about records name them by their path under the records root, spelled any way a query accepts. */
export function recordClaimResolver(root: string): ClaimResolver {
  return { space: 'record', canonical: (spelling) => normalizeRecordPath(root, spelling.trim()) };
}

/** The records pack: the one query surface, as tools for agents and MCP clients. */
export function recordsTools(context: RecordsToolContext): ToolDefinition[] {
  const query = defineTool({
    name: 'records_query',
    description:
      'Find knowledge records (procedures, decisions, failure modes…) by keyword (BM25), kind, id, links-to or project. Returns paths with glosses; read them with records_cat.',
    inputSchema: z.object({
      keyword: z.string().optional(),
      kind: z.string().optional(),
      id: z.string().optional(),
      linksTo: z.string().optional(),
      project: z.string().optional(),
      limit: z.number().int().min(1).max(200).default(20),
    }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => `query ${JSON.stringify(input)}`,
    execute: async (input) => {
      const rows = context.source.query(input);
      return {
        result: {
          ok: true,
          records: rows.map((row) => ({
            path: row.path,
            gloss: row.gloss,
            id: row.id,
            kind: row.kind,
            title: row.title,
            links: row.links,
          })),
        },
        // A query shows paths and glosses; it reads no record (records_cat does).
        evidence: { via: `records_query → ${rows.length}` },
      };
    },
  });
  const cat = defineTool({
    name: 'records_cat',
    description:
      'Read records verbatim, in one batch. Every path must be one a query returned; one bad path refuses the whole batch.',
    inputSchema: z.object({ paths: z.array(z.string()).min(1) }),
    annotations: { readOnly: true, idempotent: true },
    target: () => 'cat',
    ledgerView: (result) => ({
      paths: (result as { records: { path: string }[] }).records.map((record) => record.path),
    }),
    execute: async (input) => {
      // The one records_cat path of every surface: membership, then a re-check at read time.
      const records = catRecords(context.root, input.paths, context.source.paths(), 'records_cat');
      const paths = records.map((record) => record.path);
      // Evidence is read from disk: what was read, its hash, and the commands it states.
      const files = records.map((record) => {
        const { commands, warned } = statedCommands(parseRecord(record.content).body);
        return {
          path: record.path,
          sha256: createHash('sha256').update(record.content).digest('hex'),
          commands,
          // Stated only as what not to run: kept so a claim of one is refused for that reason.
          ...(warned.length > 0 ? { warned } : {}),
        };
      });
      return {
        result: { ok: true, records },
        evidence: {
          via: `records_cat ${paths.length} record${paths.length === 1 ? '' : 's'}`,
          effects: files.map((file) => ({
            kind: 'read' as const,
            space: 'record',
            key: file.path,
            id: file.path,
            type: 'record',
            observed: {
              sha256: file.sha256,
              commands: file.commands,
              ...(file.warned ? { warned: file.warned } : {}),
            },
          })),
          files,
        },
      };
    },
  });
  const failureLog: FailureLogMemo = {};
  const recallTool = defineTool({
    name: 'records_recall',
    description:
      'Search the failure log (mistakes.jsonl) and failure-mode records for whole-word terms; "a-b" matches the phrase. Use it first: what went wrong before.',
    inputSchema: z.object({ terms: z.string().min(1), limit: z.number().int().min(1).max(100).default(10) }),
    annotations: { readOnly: true, idempotent: true },
    target: (input) => `recall ${input.terms}`,
    execute: async (input) => {
      const { matched, hits } = recall(
        context.root,
        context.source.recallCandidates(input.terms),
        input.terms,
        failureLog,
        input.limit,
      );
      return {
        result: { ok: true, matched, hits },
        // Recall shows hits; it reads no record (records_cat does).
        evidence: { via: `records_recall → ${matched}` },
      };
    },
  });
  const claimResolver = recordClaimResolver(context.root);
  return [query, cat, recallTool].map((tool) => ({ ...tool, claimResolver }));
}
