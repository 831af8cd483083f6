/**
 * Starting points for a payload: the shapes receivers expect (wire reference, "Common payloads").
 * For run events the artifact fields are left out, since they would render blank.
 */

export type TemplateId = 'repository-dispatch' | 'message-card' | 'messaging-blocks' | 'generic';

export interface PayloadTemplate {
  id: TemplateId;
  label: string;
  description: string;
  build(category: 'artifact' | 'run'): unknown;
}

/** Every variable an event of the category has, each as its own field. */
function eventVariables(category: 'artifact' | 'run'): Record<string, string> {
  const shared = { event_type: '${event_type}', event_author: '${event_author}', entity_name: '${entity_name}', project_name: '${project_name}' };
  if (category === 'run') return shared;
  return { ...shared, artifact_collection_name: '${artifact_collection_name}', artifact_version: '${artifact_version}', artifact_version_string: '${artifact_version_string}' };
}

export const payloadTemplates: readonly PayloadTemplate[] = [
  {
    id: 'repository-dispatch',
    label: 'Repository dispatch',
    description: 'Starts a workflow: event_type must equal a type the receiving workflow lists; client_payload carries the variables.',
    build: (category) => ({
      event_type: 'BUILD_AND_DEPLOY',
      client_payload: eventVariables(category),
    }),
  },
  {
    id: 'message-card',
    label: 'Chat-service message card',
    description: 'A MessageCard with a section of facts, for chat services that accept incoming message cards.',
    build: (category) => ({
      '@type': 'MessageCard',
      '@context': 'http://schema.org/extensions',
      summary: '${event_type} in ${project_name}',
      sections: [
        {
          activityTitle: '${event_type} in ${entity_name}/${project_name}',
          activitySubtitle: 'By ${event_author}',
          facts: [
            { name: 'Event', value: '${event_type}' },
            { name: 'Author', value: '${event_author}' },
            ...(category === 'artifact'
              ? [
                  { name: 'Version', value: '${artifact_version_string}' },
                  { name: 'Collection', value: '${artifact_collection_name}' },
                ]
              : []),
          ],
          markdown: true,
        },
      ],
    }),
  },
  {
    id: 'messaging-blocks',
    label: 'Messaging blocks',
    description: 'A text fallback plus mrkdwn section blocks, for messaging services with block layouts.',
    build: (category) => ({
      text: category === 'artifact' ? '${event_type}: ${artifact_version_string}' : '${event_type} in ${project_name}',
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: '*${event_type}* in ${entity_name}/${project_name}' } },
        ...(category === 'artifact' ? [{ type: 'section', text: { type: 'mrkdwn', text: 'Version: ${artifact_version_string}' } }] : []),
        { type: 'divider' },
        { type: 'section', text: { type: 'mrkdwn', text: 'Author: ${event_author}' } },
      ],
    }),
  },
  {
    id: 'generic',
    label: 'Generic',
    description: 'A flat object with every variable that applies, for your own endpoint.',
    build: eventVariables,
  },
];

/** The template as pretty-printed JSON text, indented to sit at `baseIndent` when nested. */
export function templateText(id: TemplateId, category: 'artifact' | 'run' = 'artifact', indent = '  ', baseIndent = ''): string {
  const template = payloadTemplates.find((candidate) => candidate.id === id);
  if (!template) throw new Error(`No payload template "${id}".`);
  return JSON.stringify(template.build(category), null, indent).replace(/\n/g, `\n${baseIndent}`);
}
