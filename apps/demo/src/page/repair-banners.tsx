/**
 * The banners above a transcript whose log ended inside an open turn: shown as stored when it could
 * not be opened here, or the seqs crash repair appended when this page opened it.
 */
import type { RepairRange } from './repair-range.js';

/** `needsRepair`: the observation could not be opened here; `repair`: what opening it repaired. */
export function RepairBanners({ needsRepair, repair }: { needsRepair: boolean; repair: RepairRange | undefined }) {
  return (
    <>
      {needsRepair && (
        <p class="banner warn" role="note">
          This log ends inside an open turn: the process that wrote it stopped mid-step, or another process is still writing it. It could
          not be opened here, so it is shown as stored, without crash repair.
        </p>
      )}
      {repair !== undefined && (
        <p class="banner warn" role="note">
          This log ended inside an open turn: the process that wrote it stopped mid-step. Opening it ran crash repair: seqs {repair.start}–
          {repair.end} give {repair.results} open call(s) interrupted results and close turn {repair.turn ?? '?'} as interrupted. Send a
          message (e.g. <code>continue</code>) to carry on.
        </p>
      )}
    </>
  );
}
