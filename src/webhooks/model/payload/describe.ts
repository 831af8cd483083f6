import type { PayloadContext } from './context';
import { describeEvent } from './events';
import { inlineCode } from '../../../platform/kit/markdownText';
import type { Resolution } from './resolve';
import { accessTokenVariable, metadataPrefix, metadataVariable, secretVariable, type VariableInfo } from './variables';

/** What hover and completion say about one variable: meaning, source and the sample's value. */
export interface VariableDescription {
  title: string;
  /** A few words, for places where a sentence does not fit. */
  summary: string;
  meaning: string;
  source: string;
  /** The value in the chosen sample event; undefined for secrets, which are never shown. */
  example?: string;
  /** Markdown combining the above. */
  markdown: string;
}

export function describeResolution(resolution: Resolution, context: PayloadContext): VariableDescription | undefined {
  switch (resolution.kind) {
    case 'variable':
      return describe(resolution.info, context.sample.values[resolution.info.name] ?? resolution.info.example, context);
    case 'metadata':
      return describe(
        {
          ...metadataVariable,
          name: `${metadataPrefix}.${resolution.key}`,
          meaning: `Value of the top-level metadata key \`${resolution.key}\` of the triggering artifact version. Any key may be used; the artifact decides which exist.`,
        },
        context.sample.metadata[resolution.key],
        context,
      );
    case 'access-token':
      return describeSecret(accessTokenVariable, context, context.webhook && !context.webhook.hasAccessToken ? 'This webhook has no access token.' : undefined);
    case 'secret':
      return describeSecret(secretVariable(resolution.name), context, context.webhook && context.webhook.secretName !== resolution.name ? 'This webhook has no secret by that name.' : undefined);
    default:
      return undefined;
  }
}

export function describeVariable(info: VariableInfo, context: PayloadContext): VariableDescription {
  return describe(info, context.sample.values[info.name] ?? info.example, context);
}

function describe(info: VariableInfo, example: string | undefined, context: PayloadContext): VariableDescription {
  const sampleName = `${describeEvent(context.sample.type).title.toLowerCase()} (${context.sample.type})`;
  const exampleLine =
    example === undefined ? `Example: no value in the sample event for ${sampleName}; edit the sample event to add one.` : `Example for the sample event, ${sampleName}: ${inlineCode(example)}`;
  const markdown = [`**\${${info.name}}**`, info.meaning, `Source: ${info.source}`, exampleLine].join('\n\n');
  const description: VariableDescription = { title: `\${${info.name}}`, summary: info.summary, meaning: info.meaning, source: info.source, markdown };
  if (example !== undefined) description.example = example;
  return description;
}

function describeSecret(info: VariableInfo, context: PayloadContext, warning: string | undefined): VariableDescription {
  const owner = context.webhook ? `Webhook: \`${context.webhook.name}\`.` : 'No webhook is chosen for this file, so which secrets exist is not known.';
  const example = `Example: ${inlineCode(`"token": "\${${info.name}}"`)} puts the value into the request body.`;
  const markdown = [`**\${${info.name}}**`, info.meaning, `Source: ${info.source}`, owner, ...(warning ? [`**${warning}**`] : []), example, 'The value is never shown; the preview masks it.'].join(
    '\n\n',
  );
  return { title: `\${${info.name}}`, summary: info.summary, meaning: info.meaning, source: info.source, markdown };
}
