import { describe, expect, it } from 'vitest';
import { parseCache } from './parse-cache.ts';

describe('parseCache', () => {
  it('parses a text once and answers the same parse after', async () => {
    const parsed: string[] = [];
    const read = parseCache(async (text: string) => {
      parsed.push(text);
      return { length: text.length };
    });
    const first = await read('<bpmn/>');
    expect(await read('<bpmn/>')).toBe(first);
    expect(parsed).toEqual(['<bpmn/>']);
  });

  it('drops the text used longest ago past its size, and keeps one used again', async () => {
    const parsed: string[] = [];
    const read = parseCache(async (text: string) => parsed.push(text), 2);
    await read('a');
    await read('b');
    await read('a');
    await read('c');
    await read('a');
    await read('b');
    expect(parsed).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps no failed parse: the next call parses again', async () => {
    let calls = 0;
    const read = parseCache(async () => {
      calls += 1;
      if (calls === 1) throw new Error('not XML');
      return 'ok';
    });
    await expect(read('x')).rejects.toThrow('not XML');
    expect(await read('x')).toBe('ok');
    expect(calls).toBe(2);
  });
});
