import type { ChatParameters } from '../model/conversationTypes';
import { maxSystemPromptChars } from '../model/limits';
import { h } from '../../platform/pages/page/dom';

export interface SettingsValues {
  systemPrompt: string;
  parameters: ChatParameters;
}

/**
 * System prompt and request options of the conversation. Empty number fields mean "server default"
 * and are left out of the request; the host validates and clamps what arrives.
 */
export class SettingsPanel {
  readonly element: HTMLElement;
  private readonly systemPrompt: HTMLTextAreaElement;
  private readonly temperature: HTMLInputElement;
  private readonly topP: HTMLInputElement;
  private readonly maxTokens: HTMLInputElement;
  private readonly seed: HTMLInputElement;
  private readonly stop: HTMLTextAreaElement;
  private readonly jsonOutput: HTMLInputElement;

  constructor(private readonly onChange: (values: SettingsValues) => void) {
    this.systemPrompt = h('textarea', { class: 'system-prompt', ariaLabel: 'System prompt' });
    this.systemPrompt.rows = 3;
    // The host refuses a longer one; the field never lets it get that long.
    this.systemPrompt.maxLength = maxSystemPromptChars;
    this.systemPrompt.placeholder = 'Optional instructions sent before the conversation';
    this.temperature = numberInput('0 to 2', '0.1', '0', '2');
    this.topP = numberInput('0 to 1', '0.05', '0', '1');
    this.maxTokens = numberInput('server default', '1', '1');
    this.seed = numberInput('random', '1');
    this.stop = h('textarea', { class: 'stop-sequences', ariaLabel: 'Stop sequences' });
    this.stop.rows = 2;
    this.stop.placeholder = 'One per line (up to 4)';
    this.jsonOutput = h('input', { type: 'checkbox' });
    this.element = h(
      'section',
      { class: 'settings-panel', hidden: true, ariaLabel: 'Chat settings' },
      h('label', { class: 'field wide' }, h('span', {}, 'System prompt'), this.systemPrompt),
      h(
        'div',
        { class: 'settings-grid' },
        h('label', { class: 'field' }, h('span', {}, 'Temperature'), this.temperature),
        h('label', { class: 'field' }, h('span', {}, 'Top P'), this.topP),
        h('label', { class: 'field' }, h('span', {}, 'Max tokens'), this.maxTokens),
        h('label', { class: 'field' }, h('span', {}, 'Seed'), this.seed),
      ),
      h('label', { class: 'field wide' }, h('span', {}, 'Stop sequences'), this.stop),
      h('label', { class: 'check', title: 'Ask for a JSON object (response_format json_object)' }, this.jsonOutput, h('span', {}, 'JSON output')),
    );
    for (const input of [this.systemPrompt, this.temperature, this.topP, this.maxTokens, this.seed, this.stop, this.jsonOutput]) {
      input.addEventListener('change', () => this.onChange(this.values()));
    }
  }

  get visible(): boolean {
    return !this.element.hidden;
  }

  setVisible(visible: boolean): void {
    this.element.hidden = !visible;
  }

  setValues(values: SettingsValues): void {
    this.systemPrompt.value = values.systemPrompt;
    const p = values.parameters;
    this.temperature.value = p.temperature === undefined ? '' : String(p.temperature);
    this.topP.value = p.topP === undefined ? '' : String(p.topP);
    this.maxTokens.value = p.maxTokens === undefined ? '' : String(p.maxTokens);
    this.seed.value = p.seed === undefined ? '' : String(p.seed);
    this.stop.value = p.stop.join('\n');
    this.jsonOutput.checked = p.jsonOutput;
  }

  values(): SettingsValues {
    const number = (input: HTMLInputElement) => (input.value.trim() === '' || !Number.isFinite(input.valueAsNumber) ? undefined : input.valueAsNumber);
    const parameters: ChatParameters = {
      stop: this.stop.value.split('\n').filter((line) => line !== ''),
      jsonOutput: this.jsonOutput.checked,
    };
    const temperature = number(this.temperature);
    if (temperature !== undefined) parameters.temperature = temperature;
    const topP = number(this.topP);
    if (topP !== undefined) parameters.topP = topP;
    const maxTokens = number(this.maxTokens);
    if (maxTokens !== undefined) parameters.maxTokens = maxTokens;
    const seed = number(this.seed);
    if (seed !== undefined) parameters.seed = seed;
    return { systemPrompt: this.systemPrompt.value, parameters };
  }
}

function numberInput(placeholder: string, step: string, min?: string, max?: string): HTMLInputElement {
  const input = h('input', { type: 'number' });
  input.placeholder = placeholder;
  input.step = step;
  if (min !== undefined) input.min = min;
  if (max !== undefined) input.max = max;
  return input;
}
