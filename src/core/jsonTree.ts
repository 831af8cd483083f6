/**
 * A strict JSON parser (RFC 8259: no comments, no trailing commas) that keeps where every value
 * is, so a problem found in the parsed value can be put back on the text that holds it.
 */

export type JsonPath = (string | number)[];

export interface JsonNode {
  type: 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';
  /** Offset of the value's first character, and its length, in the parsed text. */
  offset: number;
  length: number;
  /** Array elements, in order. */
  items?: JsonNode[];
  /** Object members by key (the last one wins for duplicate keys, as in JSON.parse). */
  members?: Map<string, JsonNode>;
}

export interface JsonSyntaxProblem {
  offset: number;
  length: number;
  message: string;
}

export type JsonParseResult = { ok: true; value: unknown; root: JsonNode } | { ok: false; error: JsonSyntaxProblem };

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

class SyntaxFailure extends Error {
  constructor(readonly problem: JsonSyntaxProblem) {
    super(problem.message);
  }
}

/** Parses `text` from `start` to `end`; offsets in the result are offsets in `text`. */
export function parseJsonTree(text: string, start = 0, end = text.length): JsonParseResult {
  let position = start;

  const fail = (message: string, at = position, length = 1): never => {
    throw new SyntaxFailure({ offset: at, length: Math.max(1, Math.min(length, end - at)), message });
  };

  const skipWhitespace = () => {
    while (position < end) {
      const code = text.charCodeAt(position);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) position++;
      else break;
    }
  };

  const parseString = (): { value: string; node: JsonNode } => {
    const from = position;
    position++;
    for (;;) {
      if (position >= end) fail('unterminated string', from, end - from);
      const char = text[position];
      if (char === '"') break;
      if (char === '\\') position++;
      else if (char === '\n' || char === '\r') fail('unterminated string', from, position - from);
      position++;
    }
    position++;
    let value: string;
    try {
      value = JSON.parse(text.slice(from, position)) as string;
    } catch {
      return fail('invalid character or escape in string', from, position - from);
    }
    return { value, node: { type: 'string', offset: from, length: position - from } };
  };

  const parseValue = (): { value: unknown; node: JsonNode } => {
    skipWhitespace();
    if (position >= end) fail('value expected', Math.max(start, end - 1));
    const char = text[position];
    const from = position;
    if (char === '{') {
      position++;
      const value: Record<string, unknown> = {};
      const members = new Map<string, JsonNode>();
      skipWhitespace();
      if (text[position] === '}') {
        position++;
      } else {
        for (;;) {
          skipWhitespace();
          if (text[position] !== '"') fail('property name expected');
          const key = parseString().value;
          skipWhitespace();
          if (text[position] !== ':') fail('colon expected');
          position++;
          const member = parseValue();
          // defineProperty, like JSON.parse: a "__proto__" key is data, not the prototype.
          Object.defineProperty(value, key, { value: member.value, enumerable: true, writable: true, configurable: true });
          members.set(key, member.node);
          skipWhitespace();
          if (text[position] === ',') {
            position++;
            continue;
          }
          if (text[position] === '}') {
            position++;
            break;
          }
          fail('comma or "}" expected');
        }
      }
      return { value, node: { type: 'object', offset: from, length: position - from, members } };
    }
    if (char === '[') {
      position++;
      const value: unknown[] = [];
      const items: JsonNode[] = [];
      skipWhitespace();
      if (text[position] === ']') {
        position++;
      } else {
        for (;;) {
          const item = parseValue();
          value.push(item.value);
          items.push(item.node);
          skipWhitespace();
          if (text[position] === ',') {
            position++;
            continue;
          }
          if (text[position] === ']') {
            position++;
            break;
          }
          fail('comma or "]" expected');
        }
      }
      return { value, node: { type: 'array', offset: from, length: position - from, items } };
    }
    if (char === '"') return parseString();
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
      numberPattern.lastIndex = position;
      const match = numberPattern.exec(text);
      if (!match || position + match[0].length > end) return fail('invalid number');
      position += match[0].length;
      return { value: Number(match[0]), node: { type: 'number', offset: from, length: position - from } };
    }
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, position) && position + word.length <= end) {
        position += word.length;
        return { value, node: { type: value === null ? 'null' : 'boolean', offset: from, length: word.length } };
      }
    }
    return fail('value expected');
  };

  try {
    const { value, node } = parseValue();
    skipWhitespace();
    if (position < end) fail('end of input expected', position, end - position);
    return { ok: true, value, root: node };
  } catch (error) {
    if (error instanceof SyntaxFailure) return { ok: false, error: error.problem };
    throw error;
  }
}

/** The node at `path`, or undefined when some step of it does not exist. */
export function nodeAtPath(root: JsonNode, path: JsonPath): JsonNode | undefined {
  let node: JsonNode | undefined = root;
  for (const step of path) {
    if (!node) return undefined;
    node = typeof step === 'number' ? node.items?.[step] : node.members?.get(step);
  }
  return node;
}
