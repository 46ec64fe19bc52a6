import { randomBytes } from 'node:crypto';
import { copyFile, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { encodeJsonl } from 'dsh-codec';
import type { CliContext } from '../cli-context.js';
import { decodeLogFile } from './validate-command.js';

async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `file` with `text` atomically: the new content is written and fsynced beside it, the
 * original is copied to `file.bak` (itself replaced atomically), then a rename publishes the new file.
 */
export async function replaceFileKeepingBackup(file: string, text: string): Promise<void> {
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = `${file}.tmp-${suffix}`;
  const backupTemp = `${file}.bak.tmp-${suffix}`;
  try {
    await writeDurably(temp, text);
    await copyFile(file, backupTemp);
    await syncFile(backupTemp);
    await rename(backupTemp, `${file}.bak`);
    await rename(temp, file);
    await syncFile(dirname(file));
  } catch (error) {
    await rm(temp, { force: true });
    await rm(backupTemp, { force: true });
    throw error;
  }
}

/** `dsh migrate FILE [--write]`: prints the log as V4 JSONL, or replaces FILE keeping `FILE.bak`. */
export async function migrateCommand(context: CliContext, file: string, write: boolean): Promise<number> {
  const decoded = await decodeLogFile(file);
  const text = encodeJsonl({ header: decoded.header, events: decoded.events });
  if (!write) {
    context.stdout.write(text);
    return 0;
  }
  if ((await readFile(file, 'utf8')) === text) {
    context.stderr.write(`${file} is already V4; nothing to write\n`);
    return 0;
  }
  await replaceFileKeepingBackup(file, text);
  context.stderr.write(`migrated ${file} from V${decoded.sourceVersion} to V4; the original is kept as ${file}.bak\n`);
  return 0;
}
