import { describe, expect, it } from 'vitest';
import { JsonRpcArrayStream } from './json-rpc-array-stream';

/** Streams `text` cut every `size` bytes; returns the elements handed over and the envelope. */
function read(text: string, size: number) {
  const elements: unknown[] = [];
  let batches = 0;
  const stream = new JsonRpcArrayStream((batch) => {
    batches++;
    elements.push(...(JSON.parse(batch) as unknown[]));
  });
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) stream.write(bytes.subarray(i, i + size));
  return { elements, batches, envelope: stream.end() };
}

const items = [
  { account: { data: ['AAEC', 'base64'], lamports: 2039280, owner: 'Tok"en,]}' }, pubkey: 'x\\"y' },
  { account: { data: ['AwQF', 'base64'], nested: [[1, 2], { a: [] }] }, pubkey: 'é€𝄞' },
  [],
  'a string, with [brackets]',
  'ends in a backslash \\',
  '\\"\\\\"',
  42,
];

describe('JsonRpcArrayStream', () => {
  it('hands over every element of result, whatever the chunk size, and keeps the envelope', () => {
    const text = JSON.stringify({ jsonrpc: '2.0', result: items, id: 7 });
    for (const size of [1, 2, 3, 5, 7, 16, 64, 1000]) {
      const { elements, envelope } = read(text, size);
      expect(elements).toEqual(items);
      expect(envelope).toEqual({ jsonrpc: '2.0', result: [], id: 7 });
    }
  });

  it('hands over whole elements in batches, not the answer at once', () => {
    const many = Array.from({ length: 1000 }, (_, i) => ({ pubkey: `k${i}`, account: { data: [`d${i}`] } }));
    const { elements, batches } = read(JSON.stringify({ jsonrpc: '2.0', result: many, id: 1 }), 4096);
    expect(elements).toEqual(many);
    expect(batches).toBeGreaterThan(5);
  });

  it('reads whitespace, an id before result, and an empty result', () => {
    const text = ' {\n "id" : 1 ,\n "result" : [ {"a":1} ,\n {"b":[2]} ] , "jsonrpc":"2.0" }\n';
    expect(read(text, 3)).toMatchObject({ elements: [{ a: 1 }, { b: [2] }] });
    expect(read('{"jsonrpc":"2.0","result":[ ],"id":1}', 4)).toMatchObject({
      elements: [],
      envelope: { result: [] },
    });
  });

  it('keeps an error, and a result that is not a list, in the envelope', () => {
    const error = { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params: [x]' }, id: 1 };
    expect(read(JSON.stringify(error), 5)).toEqual({ elements: [], batches: 0, envelope: error });
    const wrapped = { jsonrpc: '2.0', result: { context: { slot: 1 }, value: [{ a: 1 }] }, id: 1 };
    expect(read(JSON.stringify(wrapped), 5).envelope).toEqual(wrapped);
  });

  it('says so when the answer is cut short', () => {
    const stream = new JsonRpcArrayStream(() => undefined);
    stream.write(Buffer.from('{"jsonrpc":"2.0","result":[{"a":1},{"b"'));
    expect(() => stream.end()).toThrow(SyntaxError);
  });
});
