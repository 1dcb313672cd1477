import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileChatStore } from '../../../src/agents/coder/chat-store.js';
import { tempDir } from '../../helpers.js';

describe('the file chat store', () => {
  it('saves a chat as a 0600 file in 0700 directories and loads it back', () => {
    const root = tempDir();
    const store = fileChatStore(root);
    const chat = store.create();
    store.save(chat);
    expect(statSync(join(root, '.tally')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, '.tally', 'chats')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, '.tally', 'chats', `${chat.id}.json`)).mode & 0o777).toBe(0o600);
    expect(store.load(chat.id)).toEqual(chat);
    expect(readdirSync(join(root, '.tally', 'chats'))).toEqual([`${chat.id}.json`]);
  });

  it('refuses ids that could name another path', () => {
    const store = fileChatStore(tempDir());
    for (const id of ['../x', 'a/b', '', '.hidden', 'x'.repeat(65)])
      expect(() => store.load(id), id).toThrow(expect.objectContaining({ code: 'CHAT_ID_INVALID' }));
  });

  it('says when a chat does not exist or is not a chat', () => {
    const root = tempDir();
    const store = fileChatStore(root);
    expect(() => store.load('chat_missing')).toThrow(
      /No chat "chat_missing".*omit --chat to start a new chat/,
    );
    mkdirSync(join(root, '.tally', 'chats'), { recursive: true });
    writeFileSync(join(root, '.tally', 'chats', 'chat_bad.json'), '{not json');
    expect(() => store.load('chat_bad')).toThrow(expect.objectContaining({ code: 'CHAT_UNREADABLE' }));
  });

  it('never follows a symlink: not a linked chat file, not a linked chats directory', () => {
    const root = tempDir();
    const outside = tempDir();
    const store = fileChatStore(root);
    const chat = store.create();
    mkdirSync(join(root, '.tally', 'chats'), { recursive: true });
    writeFileSync(join(outside, 'victim.json'), JSON.stringify({ ...chat }));
    symlinkSync(join(outside, 'victim.json'), join(root, '.tally', 'chats', `${chat.id}.json`));
    expect(() => store.load(chat.id)).toThrow(expect.objectContaining({ code: 'CHAT_STORE_UNSAFE' }));
    // Saving replaces the link itself; the file it pointed to is untouched.
    store.save({ ...chat, updatedAt: 'later' });
    expect(JSON.parse(readFileSync(join(outside, 'victim.json'), 'utf8')).updatedAt).toBe(chat.updatedAt);
    expect(store.load(chat.id).updatedAt).toBe('later');

    const second = tempDir();
    mkdirSync(join(second, '.tally'));
    symlinkSync(outside, join(second, '.tally', 'chats'));
    expect(() => fileChatStore(second).save(chat)).toThrow(
      expect.objectContaining({ code: 'CHAT_STORE_UNSAFE' }),
    );
    expect(readdirSync(outside)).toEqual(['victim.json']);
  });

  it('a FIFO or a folder planted at a chat path is refused at once, never waited on', () => {
    const root = tempDir();
    const store = fileChatStore(root);
    mkdirSync(join(root, '.tally', 'chats'), { recursive: true });
    execFileSync('mkfifo', [join(root, '.tally', 'chats', 'chat_fifo.json')]);
    mkdirSync(join(root, '.tally', 'chats', 'chat_dir.json'));
    for (const id of ['chat_fifo', 'chat_dir'])
      expect(() => store.load(id)).toThrow(
        expect.objectContaining({
          code: 'CHAT_STORE_UNSAFE',
          message: expect.stringMatching(/is not a regular file/),
        }),
      );
  });
});
