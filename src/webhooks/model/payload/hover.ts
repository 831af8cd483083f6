import { referenceAt, type PayloadAnalysis } from './analysis';
import type { PayloadContext } from './context';
import { describeResolution } from './describe';
import { resolveName } from './resolve';

export interface PayloadHover {
  /** The span of the whole `${…}` the hover is about. */
  start: number;
  end: number;
  markdown: string;
}

/** Hover over a `${…}`: meaning, source and the example value for the chosen sample event. */
export function hover(analysis: PayloadAnalysis, offset: number, context: PayloadContext): PayloadHover | undefined {
  const reference = referenceAt(analysis.references, offset);
  if (!reference || !reference.terminated) return undefined;
  const description = describeResolution(resolveName(reference.name, context.webhook), context);
  if (!description) return undefined;
  return { start: reference.start, end: reference.end, markdown: description.markdown };
}
