/** The lines that are not trajectory groups, each a button that shows the line in the editor. */
import type { RolloutFileState } from '../model/inspectorModel';
import { h } from '../../platform/pages/page/dom';
import { formatCount, plural } from '../../platform/kit/format';

export class ProblemsList {
  readonly element = h('details', { class: 'problems' });
  private readonly summary = h('summary');
  private readonly list = h('ul', { class: 'plain-list' });
  private readonly more = h('p', { class: 'muted' });
  private shown = '';

  constructor(private readonly revealLine: (line: number) => void) {
    this.element.append(this.summary, this.list, this.more);
    this.element.hidden = true;
  }

  render(state: RolloutFileState): void {
    const total = state.problems.length + state.problemsNotListed;
    this.element.hidden = total === 0;
    // A Parquet log's groups are placed by rows, and it has no text editor to show one in.
    const byRows = state.format === 'parquet';
    this.summary.textContent = `Problems (${formatCount(total)}): ${byRows ? 'rows' : 'lines'} that are not trajectory groups`;
    // Redrawn only when they changed: a state arrives with every chunk read.
    const key = `${state.format}:${state.problems.length}:${state.problemsNotListed}:${state.problems.at(-1)?.line ?? ''}`;
    if (key === this.shown) return;
    this.shown = key;
    this.list.replaceChildren(
      ...state.problems.map((problem) => {
        if (byRows) return h('li', {}, h('span', { class: 'problem-line' }, `row ${formatCount(problem.line + 1)}`), h('span', {}, ` ${problem.message}`));
        const reveal = h('button', { type: 'button', class: 'link-button problem-line', title: 'Show this line in the text editor' }, `line ${formatCount(problem.line + 1)}`);
        reveal.addEventListener('click', () => this.revealLine(problem.line));
        return h('li', {}, reveal, h('span', {}, ` ${problem.message}`));
      }),
    );
    this.more.hidden = state.problemsNotListed <= 0;
    this.more.textContent = state.problemsNotListed > 0 ? `and ${plural(state.problemsNotListed, 'more problem')} not listed` : '';
  }
}
