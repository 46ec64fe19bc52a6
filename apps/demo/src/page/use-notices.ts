/**
 * The page's notices: what each action reports (info) or refuses (error), the last five kept, newest
 * last, each with its own id so a repeated text is a new row.
 */
import { useCallback, useRef, useState } from 'preact/hooks';

/** One notice row. */
export type Notice = { id: number; text: string; tone: 'info' | 'error' };

/** How a child reports to the notices (`tone` defaults to info). */
export type Notify = (text: string, tone?: Notice['tone']) => void;

/** The notices shown, a stable `notify` that adds one (dropping the oldest beyond five), and `clear`. */
export function useNotices(): { notices: Notice[]; notify: Notify; clear: () => void } {
  const [notices, setNotices] = useState<Notice[]>([]);
  const noticeId = useRef(0);
  const notify = useCallback((text: string, tone: Notice['tone'] = 'info') => {
    noticeId.current += 1;
    const notice = { id: noticeId.current, text, tone };
    setNotices((previous) => [...previous.slice(-4), notice]);
  }, []);
  const clear = useCallback(() => {
    setNotices((previous) => (previous.length === 0 ? previous : []));
  }, []);
  return { notices, notify, clear };
}
