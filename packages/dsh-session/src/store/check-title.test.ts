import { describe, expect, it } from 'vitest';
import { createMemoryStore, PrintableTitle, printableTitle } from 'dsh-session';

describe('PrintableTitle', () => {
  it('is made only by printableTitle, for text without control characters, and serialises as its text', () => {
    const title = printableTitle('plain title');
    expect(PrintableTitle.is(title)).toBe(true);
    expect(title?.text).toBe('plain title');
    expect(JSON.stringify({ title })).toBe('{"title":"plain title"}');
    expect(printableTitle('a\u001b[2Jb')).toBeUndefined();
    expect(PrintableTitle.is({ text: 'shaped like one' })).toBe(false);
  });

  it('a store takes a PrintableTitle as checked and still checks a plain string title (INVALID_TITLE)', async () => {
    const store = createMemoryStore();
    const source = await store.create({ id: 'source' });
    await source.flush();
    const child = await store.fork('source', { atSeq: 'latest-closed-turn', title: printableTitle('child')! });
    expect(child.title).toBe('child');
    await expect(store.fork('source', { atSeq: 'latest-closed-turn', title: 'a\u0007' })).rejects.toMatchObject({ code: 'INVALID_TITLE' });
    await store.close();
  });
});
