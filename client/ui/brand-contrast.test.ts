import { describe, expect, it } from 'vitest';
import { DARK_TEXT, LIGHT_TEXT, luminance, textOnBrand } from './brand-contrast.ts';

describe('textOnBrand', () => {
  it('keeps dark text on the light default colour', () => {
    expect(textOnBrand('#1dc4e9')).toBe(DARK_TEXT);
    expect(textOnBrand('#ffffff')).toBe(DARK_TEXT);
  });

  it('switches to white text on dark tenant colours', () => {
    expect(textOnBrand('#aa3300')).toBe(LIGHT_TEXT);
    expect(textOnBrand('#0b5394')).toBe(LIGHT_TEXT);
    expect(textOnBrand('#000000')).toBe(LIGHT_TEXT);
  });

  it('measures luminance from black to white', () => {
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ffffff')).toBeCloseTo(1);
    expect(luminance('#fff')).toBeCloseTo(1);
  });
});
