/** The notices under the transcript, as a live log. */
import type { Notice } from './use-notices.js';

/** Each notice as a row classed by its tone. */
export function NoticeList({ notices }: { notices: readonly Notice[] }) {
  return (
    <ul class="notices" role="log" aria-label="Notices">
      {notices.map((notice) => (
        <li key={notice.id} class={notice.tone}>
          {notice.text}
        </li>
      ))}
    </ul>
  );
}
