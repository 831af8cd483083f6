/** The page's header: the file, its counts, how far it has been read, and why it could not be. */
import type { RolloutFileState } from '../model/inspectorModel';
import { h } from '../../platform/pages/page/dom';
import { formatCount, plural } from '../../platform/kit/format';
import type { TrajectoryFileFormat } from '../../platform/kit/trajectoryFile';

const formatNames: Record<TrajectoryFileFormat, string> = { jsonl: 'JSON Lines', json: 'JSON', parquet: 'Parquet trajectory log' };

export class Header {
  readonly element = h('header', { class: 'page-header' });
  private readonly title = h('h1');
  private readonly facts = h('div', { class: 'facts' });
  private readonly progress = h('progress', { class: 'reading' });
  private readonly progressText = h('span', { class: 'muted small' });
  private readonly notKept = h('div', { class: 'note' });
  private readonly error = h('div', { class: 'problem' });
  private readonly otherEditor = h('button', { type: 'button', class: 'reopen-with', title: 'Choose another editor for this file' }, 'Open With…');

  constructor(reopenWith: () => void) {
    this.otherEditor.addEventListener('click', reopenWith);
    this.progress.setAttribute('aria-label', 'Reading the file');
    const reading = h('div', { class: 'reading-row' }, this.progress, this.progressText);
    this.element.append(this.title, this.facts, reading, this.notKept, this.error, this.otherEditor);
  }

  render(state: RolloutFileState): void {
    this.title.textContent = state.fileName;
    document.title = state.fileName;
    const statistics = state.statistics;
    // A Parquet file that is not a trajectory log has no groups to count: its format is all there is to say.
    this.facts.textContent = state.notTrajectoryLog
      ? 'Parquet'
      : [plural(statistics.groups, 'group'), plural(statistics.trajectories, 'trajectory', 'trajectories'), formatNames[state.format]].join(' · ');
    const reading = state.reading;
    (this.progress.parentElement as HTMLElement).hidden = !reading;
    if (reading) {
      this.progress.max = Math.max(1, reading.totalBytes);
      this.progress.value = Math.min(reading.bytesRead, reading.totalBytes);
      const percent = reading.totalBytes > 0 ? Math.floor((100 * reading.bytesRead) / reading.totalBytes) : 0;
      const done = reading.unit === 'rows' ? `${formatCount(reading.bytesRead)} of ${plural(reading.totalBytes, 'row')}` : `${formatBytes(reading.bytesRead)} of ${formatBytes(reading.totalBytes)}`;
      this.progressText.textContent = `Reading the file… ${percent}% (${done}); the figures grow as it is read`;
    }
    this.notKept.hidden = state.groupsNotKept <= 0;
    this.notKept.textContent =
      state.groupsNotKept > 0
        ? `${plural(state.groupsNotKept, 'more group')} ${state.groupsNotKept === 1 ? 'is' : 'are'} counted in the overview but not listed: the list keeps the first ${formatCount(Math.max(0, statistics.groups - state.groupsNotKept))}.`
        : '';
    this.error.hidden = !state.error;
    this.error.textContent = state.error ?? '';
    this.otherEditor.hidden = state.notTrajectoryLog !== true;
  }
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
