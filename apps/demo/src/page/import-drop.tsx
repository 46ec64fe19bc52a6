/**
 * Importing a transcript file: drop a Claude Code, Codex or pi session file anywhere on the page,
 * or pick one with the file input. The file's text goes to `POST /api/import`; the page then shows
 * the imported tree (a notice, and the lineage in the session list) and opens the main line.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, type ImportAnswer } from './api.js';

type Props = { onImported: (answer: ImportAnswer, fileName: string) => void; onError: (message: string) => void };

/** The imported sessions as tree lines: the main line, then each fork child under its parent with its cut. */
export function importTreeLines(answer: ImportAnswer): string[] {
  const children = new Map<string, ImportAnswer['sessions']>();
  for (const session of answer.sessions.slice(1)) {
    const parent = session.parentSession ?? '';
    children.set(parent, [...(children.get(parent) ?? []), session]);
  }
  const lines: string[] = [];
  const walk = (session: ImportAnswer['sessions'][number], prefix: string, last: boolean, root: boolean) => {
    const what = root ? `${String(session.events)} events` : `fork at seq ${String(session.forkCut)}, ${String(session.events)} events`;
    lines.push(`${prefix}${root ? '' : last ? '└─ ' : '├─ '}${session.id} (${what}${session.kept === true ? ', already there' : ''})`);
    const kids = children.get(session.id) ?? [];
    kids.forEach((kid, index) => {
      walk(kid, root ? '' : `${prefix}${last ? '   ' : '│  '}`, index === kids.length - 1, false);
    });
  };
  const main = answer.sessions[0];
  if (main !== undefined) walk(main, '', true, true);
  return lines;
}

/** A region “Import a transcript” with a file input; while it is mounted, a file dropped on the page is imported. */
export function ImportDrop({ onImported, onError }: Props) {
  const [busy, setBusy] = useState<string | undefined>();
  const [dragging, setDragging] = useState(false);

  const importFile = async (file: File) => {
    setBusy(file.name);
    try {
      onImported(await api.importTranscript(await file.text()), file.name);
    } catch (error) {
      onError(`${file.name}: ${error instanceof Error && 'code' in error ? `${String(error.code)}: ${error.message}` : String(error)}`);
    } finally {
      setBusy(undefined);
    }
  };

  useEffect(() => {
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setDragging(true);
    };
    const leave = () => {
      setDragging(false);
    };
    const drop = (event: DragEvent) => {
      const file = event.dataTransfer?.files[0];
      if (file === undefined) return;
      event.preventDefault();
      setDragging(false);
      void importFile(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  });

  return (
    <section class={dragging ? 'import-drop dragging' : 'import-drop'} aria-label="Import a transcript">
      <label>
        <span>
          {busy === undefined
            ? 'Import a transcript: drop a Claude Code, Codex or pi session file here, or choose one'
            : `Importing ${busy}…`}
        </span>
        <input
          type="file"
          accept=".jsonl,.json,.txt"
          disabled={busy !== undefined}
          onChange={(event) => {
            const input = event.currentTarget;
            const file = input.files?.[0];
            if (file !== undefined) void importFile(file).finally(() => (input.value = ''));
          }}
        />
      </label>
    </section>
  );
}
