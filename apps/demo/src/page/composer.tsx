/** The composer: a message, or one of the slash commands; Enter sends, Shift+Enter breaks the line. */
import { useId, useState } from 'preact/hooks';

type Props = {
  onSubmit: (text: string) => Promise<boolean>;
  running: boolean;
  /** The text box's label (default “Message or command”), for pages with several composers. */
  label?: string;
};

/** A form labelled “Composer”; the text is kept when the submission fails, and text typed while it runs is kept too. */
export function Composer({ onSubmit, running, label }: Props) {
  const generated = useId();
  const inputId = label === undefined ? 'composer-input' : `composer-${generated}`;
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const send = async () => {
    if (sending || text.trim() === '') return;
    setSending(true);
    const submitted = text;
    const ok = await onSubmit(submitted);
    setSending(false);
    // Only what was sent is cleared: text typed while the command ran stays in the box.
    if (ok) setText((current) => (current === submitted ? '' : current));
  };
  return (
    <form
      class="composer"
      aria-label={label === undefined ? 'Composer' : `Composer: ${label}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label for={inputId} class="visually-hidden">
        {label ?? 'Message or command'}
      </label>
      <textarea
        id={inputId}
        rows={2}
        value={text}
        placeholder={
          running
            ? 'A turn is running: a message now is queued'
            : (label ?? 'Message, or a command: /branch, /rename, /resume, /compact, /help')
        }
        onInput={(event) => {
          setText(event.currentTarget.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey) {
            event.preventDefault();
            void send();
          }
        }}
      />
      <button type="submit" disabled={sending}>
        {running ? 'Queue' : 'Send'}
      </button>
    </form>
  );
}
