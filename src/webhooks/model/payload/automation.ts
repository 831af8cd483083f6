import { findNodeAtLocation, type Node } from '../../../platform/kit/strictJson';
import { isEventType, type EventType } from './events';

/** A value found in an automation file, with the span of its JSON token. */
export interface FieldValue<T = unknown> {
  value: T;
  start: number;
  end: number;
}

/** The parts of an automation file (`*.automation.json`) the language features reason about. */
export interface AutomationFields {
  name?: FieldValue<string>;
  team?: FieldValue<string>;
  webhook?: FieldValue<string>;
  event?: {
    start: number;
    end: number;
    /** The event type as written (a known type or not). */
    type?: FieldValue<string>;
    aliasRegex?: FieldValue;
    tagRegex?: FieldValue;
  };
  /** The payload template: its strings are where variables live. */
  payload?: { start: number; end: number };
}

function field(node: Node | undefined): FieldValue | undefined {
  return node ? { value: node.value, start: node.offset, end: node.offset + node.length } : undefined;
}

function stringField(node: Node | undefined): FieldValue<string> | undefined {
  return node?.type === 'string' ? (field(node) as FieldValue<string>) : undefined;
}

export function readAutomationFields(root: Node | undefined): AutomationFields {
  if (!root || root.type !== 'object') return {};
  const fields: AutomationFields = {};
  const name = stringField(findNodeAtLocation(root, ['name']));
  if (name) fields.name = name;
  const team = stringField(findNodeAtLocation(root, ['team']));
  if (team) fields.team = team;
  const webhook = stringField(findNodeAtLocation(root, ['webhook']));
  if (webhook) fields.webhook = webhook;

  const event = findNodeAtLocation(root, ['event']);
  if (event?.type === 'object') {
    fields.event = { start: event.offset, end: event.offset + event.length };
    const type = stringField(findNodeAtLocation(event, ['type']));
    if (type) fields.event.type = type;
    const aliasRegex = field(findNodeAtLocation(event, ['aliasRegex']));
    if (aliasRegex) fields.event.aliasRegex = aliasRegex;
    const tagRegex = field(findNodeAtLocation(event, ['tagRegex']));
    if (tagRegex) fields.event.tagRegex = tagRegex;
  } else if (event?.type === 'string') {
    // Tolerated shorthand: "event": "LINK_ARTIFACT".
    fields.event = { start: event.offset, end: event.offset + event.length, type: stringField(event)! };
  }

  const payload = findNodeAtLocation(root, ['payload']);
  if (payload) fields.payload = { start: payload.offset, end: payload.offset + payload.length };
  return fields;
}

/** The automation's event type when it names a known one. */
export function automationEventType(fields: AutomationFields | undefined): EventType | undefined {
  const type = fields?.event?.type?.value;
  return isEventType(type) ? type : undefined;
}
