/** The notices under the transcript, as a live log. */
import type { Notice } from './use-notices.js';

/** Each notice as a row classed by its tone. */
export function NoticeList({ notices }: { notices: readonly Notice[] }) {
  return (
    <div role="log" aria-label="Notices">
      <ul class="notices">
        {notices.map((notice) => (
          <li key={notice.id} class={notice.tone}>
            {notice.text}
          </li>
        ))}
      </ul>
    </div>
  );
}
