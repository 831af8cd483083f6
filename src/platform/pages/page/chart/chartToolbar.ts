import { formatMetric } from '../../../kit/format';
import { button, h } from '../dom';
import type { ChartGroup } from './chartGroup';

/** What a group's toolbar offers beyond the zoom: smoothing unless told not to, and the log scale's wording. */
export interface ChartToolbarOptions {
  /** False where smoothing would misread the values (a mean drawn with its interval). */
  smoothing?: boolean;
  logLabel?: string;
  logTitle?: string;
}

/**
 * The controls of a group of charts: the smoothing (an exponential moving average, 0 to 0.99, the
 * raw line kept faint), a log scale, and the way back from a zoom. Every chart of the group follows.
 */
export function chartToolbar(group: ChartGroup, options: ChartToolbarOptions = {}): HTMLElement {
  const slider = h('input', { class: 'smoothing', title: 'Smoothing: the weight of the moving average (0 draws the raw values only)' });
  slider.type = 'range';
  slider.min = '0';
  slider.max = '0.99';
  slider.step = '0.01';
  slider.value = String(group.view.smoothing);
  slider.setAttribute('aria-label', 'Smoothing');
  const value = h('span', { class: 'smoothing-value' }, formatMetric(group.view.smoothing));
  slider.addEventListener('input', () => {
    const weight = Number(slider.value);
    value.textContent = formatMetric(weight);
    group.setView({ smoothing: Number.isFinite(weight) ? weight : 0 });
  });
  const log = h('input', { title: options.logTitle ?? 'Draw the values on a logarithmic scale (values at or below zero are left out)' });
  log.type = 'checkbox';
  log.checked = group.view.logScale;
  log.addEventListener('change', () => group.setView({ logScale: log.checked }));
  const reset = button('Show All Steps', () => group.setView({ xRange: undefined }), { title: 'Undo the zoom: every step again (or double-click a chart)' });
  reset.disabled = group.view.xRange === undefined;
  group.onDidChangeView((view) => {
    reset.disabled = view.xRange === undefined;
  });
  const smoothing = h('label', { class: 'toolbar-item' }, 'Smoothing ', slider, value);
  const logLabel = h('label', { class: 'toolbar-item' }, log, ` ${options.logLabel ?? 'Log scale'}`);
  const hint = h('span', { class: 'muted toolbar-hint' }, 'Drag across a chart to zoom on its steps.');
  return h('div', { class: 'chart-toolbar' }, ...(options.smoothing === false ? [] : [smoothing]), logLabel, reset, hint);
}
