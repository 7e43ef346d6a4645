import { describe, expect, it } from 'vitest';
import { grandTotalOf, roundToCents } from './premium.ts';

describe('roundToCents', () => {
  it('rounds halves away from zero, on both sides of zero', () => {
    expect(roundToCents(2.345)).toBe(2.35);
    expect(roundToCents(-2.345)).toBe(-2.35);
    expect(roundToCents(0.125)).toBe(0.13);
    expect(roundToCents(-0.125)).toBe(-0.13);
    expect(roundToCents(2.344)).toBe(2.34);
    expect(roundToCents(-2.344)).toBe(-2.34);
  });

  it('rounds the decimal a person wrote, not the binary number just below it', () => {
    // 1.005 is stored as 1.00499999999999989...; Math.round(1.005 * 100) / 100 gives 1.
    expect(Math.round(1.005 * 100) / 100).toBe(1);
    expect(roundToCents(1.005)).toBe(1.01);
    expect(roundToCents(-1.005)).toBe(-1.01);
    expect(roundToCents(1.015)).toBe(1.02);
    expect(roundToCents(8.345)).toBe(8.35);
    expect(roundToCents(1234567.895)).toBe(1234567.9);
    // Just below a half stays below.
    expect(roundToCents(1.00499)).toBe(1);
  });

  it('leaves cents as they are and answers 0 for a tiny negative amount, never -0', () => {
    expect(roundToCents(19.99)).toBe(19.99);
    expect(roundToCents(-48)).toBe(-48);
    expect(Object.is(roundToCents(-0.001), 0)).toBe(true);
    expect(Object.is(roundToCents(-0.004), 0)).toBe(true);
  });

  it('agrees with rounding the decimal digits for every half cent of a wide range', () => {
    // Half cents are where binary rounding goes wrong: x.yz5 must become x.yz + 0.01, away from 0.
    const decimal = (sign: string, cents: number, tail = '') =>
      Number(`${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}${tail}`);
    const wrong: string[] = [];
    for (let cents = 0; cents <= 1_000_000; cents += 3) {
      for (const sign of ['', '-']) {
        const half = decimal(sign, cents, '5');
        const below = decimal(sign, cents, '49');
        if (roundToCents(half) !== decimal(sign, cents + 1)) wrong.push(String(half));
        if (roundToCents(below) !== (decimal(sign, cents) || 0)) wrong.push(String(below));
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('grandTotalOf', () => {
  it('sums the items and rounds the binary dust away', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(grandTotalOf([{ total: 0.1 }, { total: 0.2 }])).toBe(0.3);
    expect(grandTotalOf([{ total: 240 }, { total: 0 }, { total: -48 }])).toBe(192);
    expect(grandTotalOf([{ total: -2.35 }, { total: 1.01 }])).toBe(-1.34);
    expect(grandTotalOf([])).toBe(0);
  });
});
