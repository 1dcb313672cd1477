import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { TallyError } from '../../core/errors.js';
import { writeFileAtomicSync } from '../../core/io/atomic-write.js';
import { secureStateDir } from '../../core/io/private-dir.js';
import { readRegularFileSync } from '../../core/io/read-regular-file.js';
import { type Chat, chatSchema } from './chat-record.js';

/** Where chats live between turns. The default keeps one JSON file per chat. */
export interface ChatStore {
  create(): Chat;
  /** Throws CHAT_NOT_FOUND when there is no such chat. */
  load(id: string): Chat;
  save(chat: Chat): void;
}

const CHAT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export class ChatStoreError extends TallyError {}

export function newChatId(): string {
  return `chat_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

/** Security: an id becomes a file name, so it may not carry a path. */
export function checkChatId(id: string): string {
  if (!CHAT_ID.test(id))
    throw new ChatStoreError(
      'CHAT_ID_INVALID',
      `Chat id "${id}" is not valid: use letters, digits, "_" and "-" (at most 64). Pass the id \`tally code\` printed, or omit --chat to start a new chat.`,
      { id },
    );
  return id;
}

/**
 * Security: a state directory must be a real directory of this user, never a link; `mode`
 * (the chats folder's 0700) is set through a descriptor. The checks are core's.
 */
function realDirectory(path: string, mode?: number): void {
  const state = secureStateDir(path, { create: true, ...(mode !== undefined ? { mode } : {}) });
  if (!('refused' in state)) return;
  throw new ChatStoreError(
    'CHAT_STORE_UNSAFE',
    state.reason === 'link' || state.reason === 'not-directory'
      ? `${path} is ${state.reason === 'link' ? 'a symbolic link' : 'not a directory'}; Tally does not follow links for its state. Replace it with a real directory.`
      : `${state.why}. Tally keeps chats only in a private directory of this user.`,
    { path },
  );
}

/** The parsed JSON, or undefined when the text is not JSON (then reported as a file of the wrong shape). */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return undefined;
  }
}

/**
 * One JSON file per chat under `<root>/.tally/chats/` (0700 directories, 0600 files). Reads
 * open with O_NOFOLLOW; writes go to a fresh O_EXCL temp file renamed into place, so a
 * reader never sees half a chat and a planted symlink is replaced, never followed. Two
 * processes writing one chat at once: the last turn saved wins (a chat is one conversation).
 */
export function fileChatStore(projectRoot: string): ChatStore {
  const stateDir = join(projectRoot, '.tally');
  const chatsDir = join(stateDir, 'chats');
  const pathOf = (id: string) => join(chatsDir, `${checkChatId(id)}.json`);
  return {
    create: () => {
      const now = new Date().toISOString();
      return { version: 1, id: newChatId(), createdAt: now, updatedAt: now, turns: [], tree: [] };
    },
    load: (id) => {
      const path = pathOf(id);
      const read = readRegularFileSync(path);
      if ('refused' in read && read.refused === 'absent')
        throw new ChatStoreError(
          'CHAT_NOT_FOUND',
          `No chat "${id}" in ${chatsDir}. Check the id, or omit --chat to start a new chat.`,
          { id, path },
        );
      if ('refused' in read)
        throw new ChatStoreError(
          'CHAT_STORE_UNSAFE',
          read.refused === 'not-regular' && read.kind === 'a symbolic link'
            ? `${path} is a symbolic link; Tally does not follow links for its state. Remove it.`
            : `${path} is not a regular file. Remove it.`,
          { path },
        );
      const parsed = chatSchema.safeParse(jsonOrUndefined(read.text));
      if (!parsed.success)
        throw new ChatStoreError(
          'CHAT_UNREADABLE',
          `Chat file ${path} does not have the expected shape (${z.prettifyError(parsed.error)}). Start a new chat (omit --chat), or fix or remove the file.`,
          { path },
        );
      if (parsed.data.id !== id)
        throw new ChatStoreError(
          'CHAT_UNREADABLE',
          `Chat file ${path} holds chat "${parsed.data.id}", not "${id}". Remove the file or start a new chat.`,
          { path },
        );
      return parsed.data;
    },
    save: (chat) => {
      realDirectory(stateDir);
      realDirectory(chatsDir, 0o700);
      // Temp beside the chat, fsync, rename: a symlink planted at the path is replaced, not followed.
      writeFileAtomicSync(pathOf(chat.id), `${JSON.stringify(chat, null, 2)}\n`, { mode: 0o600 });
    },
  };
}
