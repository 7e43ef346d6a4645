/**
 * Text on the tenant's brand colour: near-black or white, whichever contrasts more (WCAG
 * relative luminance). A dark tenant colour must not leave dark text on dark buttons.
 */
export const DARK_TEXT = '#020617';
export const LIGHT_TEXT = '#ffffff';

function channel(value: number): number {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** Relative luminance of `#rrggbb` or `#rgb` (0 black .. 1 white). */
export function luminance(hex: string): number {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((d) => d + d).join('') : hex.slice(1);
  const n = Number.parseInt(digits, 16);
  return (
    0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255)
  );
}

export function textOnBrand(hex: string): string {
  const l = luminance(hex);
  const withDark = (l + 0.05) / 0.05;
  const withLight = 1.05 / (l + 0.05);
  return withDark >= withLight ? DARK_TEXT : LIGHT_TEXT;
}
