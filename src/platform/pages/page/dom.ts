/**
 * The DOM builders of every webview page. No HTML strings anywhere: text goes in as text nodes,
 * so nothing a page shows (a model's answer, a job's event) can inject markup.
 */

type Child = Node | string | undefined | null | false;

/** An element with its class, tooltip, flags and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; title?: string; type?: string; ariaLabel?: string; data?: Record<string, string>; hidden?: boolean } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  if (props.title) element.title = props.title;
  if (props.type) element.setAttribute('type', props.type);
  if (props.ariaLabel) element.setAttribute('aria-label', props.ariaLabel);
  if (props.hidden) element.hidden = true;
  for (const [key, value] of Object.entries(props.data ?? {})) element.dataset[key] = value;
  for (const child of children) if (child) element.append(child);
  return element;
}

export interface ButtonProps {
  /** The tooltip: what pressing the button does. Every button has one. */
  title: string;
  class?: string;
  /** A name for assistive technology when the visible text alone says too little; it starts with that text. */
  ariaLabel?: string;
  /** A glyph shown before the text, hidden from assistive technology (the text names the button). */
  icon?: string;
}

/** A button with visible words: a glyph is only ever an addition to them, never the whole label. */
export function button(label: string, onClick: () => void, props: ButtonProps): HTMLButtonElement {
  const glyph = props.icon ? h('span', { class: 'glyph' }, props.icon) : undefined;
  glyph?.setAttribute('aria-hidden', 'true');
  const element = h('button', { type: 'button', class: props.class ?? 'secondary', title: props.title, ariaLabel: props.ariaLabel }, glyph, glyph ? ` ${label}` : label);
  element.addEventListener('click', (event) => {
    event.preventDefault();
    onClick();
  });
  return element;
}

const svgNamespace = 'http://www.w3.org/2000/svg';

/** An SVG element (charts): attributes set one by one, never markup parsed. */
export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Record<string, string | number> = {}): SVGElementTagNameMap[K] {
  const element = document.createElementNS(svgNamespace, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  return element;
}
