import type { ConversationSettings } from '../model/conversationTypes';
import { groupOptions, withSelectedModels, type ModelCatalogue } from '../model/modelOptions';
import { button, h } from '../../platform/pages/page/dom';

export interface ModelBarActions {
  settingsChanged(settings: Pick<ConversationSettings, 'model' | 'compareModel' | 'compare'>): void;
  refresh(): void;
  toggleSettings(): void;
  signIn(): void;
}

/** The model pickers, the compare switch and the notice about sources that failed. */
export class ModelBar {
  readonly element: HTMLElement;
  readonly modelSelect: HTMLSelectElement;
  readonly compareSelect: HTMLSelectElement;
  readonly compareToggle: HTMLInputElement;
  private readonly notice: HTMLElement;
  private catalogue: ModelCatalogue = { options: [], problems: [] };
  private loading = true;
  private settings: Pick<ConversationSettings, 'model' | 'compareModel' | 'compare'> = { model: '', compareModel: '', compare: false };

  constructor(private readonly actions: ModelBarActions) {
    this.modelSelect = h('select', { class: 'model-select', ariaLabel: 'Model' });
    this.compareSelect = h('select', { class: 'model-select compare-select', ariaLabel: 'Second model' });
    this.compareToggle = h('input', { type: 'checkbox', class: 'compare-toggle' });
    const changed = () => this.actions.settingsChanged({ model: this.modelSelect.value, compareModel: this.compareSelect.value, compare: this.compareToggle.checked });
    this.modelSelect.addEventListener('change', changed);
    this.compareSelect.addEventListener('change', changed);
    this.compareToggle.addEventListener('change', () => {
      this.compareSelect.hidden = !this.compareToggle.checked;
      changed();
    });
    this.notice = h('div', { class: 'notice', hidden: true });
    this.element = h(
      'div',
      { class: 'model-bar' },
      h('label', { class: 'field' }, h('span', {}, 'Model'), this.modelSelect),
      h('label', { class: 'check', title: 'Send each message to two models side by side' }, this.compareToggle, h('span', {}, 'Compare')),
      this.compareSelect,
      button('Refresh', () => this.actions.refresh(), { icon: '↻', title: 'Ask the platform again which models there are', ariaLabel: 'Refresh models', class: 'secondary refresh-models' }),
      button('Settings', () => this.actions.toggleSettings(), { title: 'System prompt, sampling and output options', class: 'secondary settings-toggle' }),
      this.notice,
    );
  }

  setCatalogue(catalogue: ModelCatalogue, loading: boolean): void {
    this.catalogue = catalogue;
    this.loading = loading;
    this.render();
  }

  setSettings(settings: Pick<ConversationSettings, 'model' | 'compareModel' | 'compare'>): void {
    this.settings = { model: settings.model, compareModel: settings.compareModel, compare: settings.compare };
    this.render();
  }

  private render(): void {
    const selected = [this.settings.model, this.settings.compareModel];
    const options = withSelectedModels(this.catalogue.options, selected);
    fillSelect(this.modelSelect, options, this.settings.model, this.loading ? 'Loading models…' : 'Choose a model');
    fillSelect(this.compareSelect, options, this.settings.compareModel, 'Choose a second model');
    this.compareToggle.checked = this.settings.compare;
    this.compareSelect.hidden = !this.settings.compare;
    const problems = this.catalogue.problems;
    this.notice.hidden = problems.length === 0;
    this.notice.replaceChildren(
      ...problems.map((problem) => h('div', {}, problem)),
      ...(problems.some((problem) => /sign in|signed|401|API key/i.test(problem)) ? [button('Sign In', () => this.actions.signIn(), { title: 'Enter your API key to load the models' })] : []),
    );
  }
}

function fillSelect(select: HTMLSelectElement, options: ReturnType<typeof withSelectedModels>, value: string, placeholder: string): void {
  const children: HTMLElement[] = [];
  const empty = h('option', {}, placeholder);
  empty.value = '';
  empty.disabled = true;
  children.push(empty);
  for (const group of groupOptions(options)) {
    const optgroup = h('optgroup');
    optgroup.label = group.group;
    for (const option of group.options) {
      const element = h('option', { title: option.id }, option.label);
      element.value = option.id;
      optgroup.append(element);
    }
    children.push(optgroup);
  }
  select.replaceChildren(...children);
  select.value = value;
  if (select.value !== value) select.value = '';
}
