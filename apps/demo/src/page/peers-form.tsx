/** The “Peers…” form: one prompt (and optional name) per peer, forked from one baseline at one cut. */
import { useState } from 'preact/hooks';

type PeerDraft = { prompt: string; title: string };
type Props = {
  baseline: string;
  /** The exact seq every peer is forked at; omitted: after the latest closed turn. */
  atSeq: number | undefined;
  onSubmit: (peers: { prompt: string; title?: string }[]) => Promise<void>;
  onCancel: () => void;
};

/** A form labelled “Fork peers”; starts with two peers, more can be added. */
export function PeersForm({ baseline, atSeq, onSubmit, onCancel }: Props) {
  const [drafts, setDrafts] = useState<PeerDraft[]>([
    { prompt: '', title: '' },
    { prompt: '', title: '' },
  ]);
  const [sending, setSending] = useState(false);
  const update = (index: number, patch: Partial<PeerDraft>) => {
    setDrafts((current) => current.map((draft, at) => (at === index ? { ...draft, ...patch } : draft)));
  };
  const ready = drafts.every((draft) => draft.prompt.trim() !== '');
  return (
    <form
      class="peers-form"
      aria-label="Fork peers"
      onSubmit={(event) => {
        event.preventDefault();
        if (!ready || sending) return;
        setSending(true);
        void onSubmit(
          drafts.map((draft) => ({ prompt: draft.prompt, ...(draft.title.trim() === '' ? {} : { title: draft.title.trim() }) })),
        ).finally(() => {
          setSending(false);
        });
      }}
    >
      <h2>Peers of {baseline}</h2>
      <p class="muted">
        Every peer is forked from {baseline} {atSeq === undefined ? 'after its latest closed turn' : `exactly at seq ${String(atSeq)}`}, and
        all prompts run at once.
      </p>
      {drafts.map((draft, index) => (
        <fieldset key={index}>
          <legend>Peer {index + 1}</legend>
          <label>
            Prompt for peer {index + 1}
            <textarea
              rows={2}
              value={draft.prompt}
              onInput={(event) => {
                update(index, { prompt: event.currentTarget.value });
              }}
            />
          </label>
          <label>
            Name of peer {index + 1} (optional)
            <input
              value={draft.title}
              placeholder={`${baseline}-${String(index + 1)}`}
              onInput={(event) => {
                update(index, { title: event.currentTarget.value });
              }}
            />
          </label>
        </fieldset>
      ))}
      <div class="actions">
        <button
          type="button"
          onClick={() => {
            setDrafts((current) => [...current, { prompt: '', title: '' }]);
          }}
        >
          Add a peer
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={!ready || sending}>
          Fork and run {drafts.length} peers
        </button>
      </div>
    </form>
  );
}
