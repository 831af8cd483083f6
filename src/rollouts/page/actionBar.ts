/**
 * What can be done with groups: with some selected, with those; with none, with every group that
 * matches the filter. The buttons end in "…": the host asks what it needs before anything is done.
 */
import { button, h } from '../../platform/pages/page/dom';
import { formatCount, plural } from '../../platform/kit/format';

export interface ActionBarEvents {
  createJob(): void;
  logToModel(): void;
  exportGroups(): void;
  clearSelection(): void;
}

export class ActionBar {
  readonly element = h('div', { class: 'action-bar' });
  private readonly scope = h('span', { class: 'scope' });
  private readonly clear: HTMLButtonElement;
  private readonly actions: HTMLButtonElement[];

  constructor(events: ActionBarEvents) {
    this.element.setAttribute('role', 'toolbar');
    this.element.setAttribute('aria-label', 'Actions on groups');
    this.scope.setAttribute('aria-live', 'polite');
    this.clear = button('Clear selection', () => events.clearSelection(), { title: 'Unselect every group: the actions then apply to all groups that match the filter', class: 'link-button' });
    this.actions = [
      button('Create Training Job…', () => events.createJob(), { title: 'Start a training job on these groups', class: 'primary' }),
      button('Log to Model…', () => events.logToModel(), { title: "Log these groups to a model's history" }),
      button('Export…', () => events.exportGroups(), { title: 'Save these groups to a file' }),
    ];
    this.element.append(this.scope, this.clear, h('span', { class: 'spacer' }), ...this.actions);
  }

  /** `selected` groups picked, of `matching` that match the filter (undefined until known). */
  render(selected: number, matching: number | undefined): void {
    this.clear.hidden = selected === 0;
    if (selected > 0) this.scope.textContent = `${plural(selected, 'group')} selected`;
    else this.scope.textContent = matching === undefined ? 'All matching groups' : `All ${formatCount(matching)} matching ${matching === 1 ? 'group' : 'groups'}`;
    const none = selected === 0 && matching === 0;
    for (const action of this.actions) action.disabled = none;
  }
}
