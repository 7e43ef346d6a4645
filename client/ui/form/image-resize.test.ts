import { describe, expect, it } from 'vitest';
import { fitWithin } from './image-resize.ts';

describe('fitWithin', () => {
  it('scales down keeping proportions to fit the box', () => {
    expect(fitWithin({ width: 2000, height: 1000 }, { width: 400, height: 400 })).toEqual({
      width: 400,
      height: 200,
    });
    expect(fitWithin({ width: 1000, height: 3000 }, { width: 400, height: 600 })).toEqual({
      width: 200,
      height: 600,
    });
  });

  it('never enlarges and survives degenerate sizes', () => {
    expect(fitWithin({ width: 100, height: 50 }, { width: 400, height: 400 })).toEqual({
      width: 100,
      height: 50,
    });
    expect(fitWithin({ width: 0, height: 50 }, { width: 400, height: 400 })).toEqual({
      width: 0,
      height: 0,
    });
    expect(fitWithin({ width: 10_000, height: 1 }, { width: 100, height: 100 })).toEqual({
      width: 100,
      height: 1,
    });
  });
});
