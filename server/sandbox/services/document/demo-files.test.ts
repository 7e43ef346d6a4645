import { describe, expect, it } from 'vitest';
import { inflateSync } from 'node:zlib';
import { makeJpeg, makePdf, makePng } from './demo-files.ts';
import { hasMagicOf } from '#common/claim-documents.ts';

describe('demo files', () => {
  it('writes a PDF whose cross-reference table points at its objects', () => {
    const pdf = makePdf('Schadenmeldung S-000001', ['Wasser (Küche) \\ Keller', '✓ not Latin-1']);
    expect(hasMagicOf(pdf, 'application/pdf')).toBe(true);
    const text = pdf.toString('latin1');
    const xref = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) =>
      Number(m[1]),
    );
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) =>
      expect(text.slice(offset)).toMatch(new RegExp(`^${i + 1} 0 obj`)),
    );
    // Parentheses and backslashes escaped, so the string ends where it should.
    expect(text).toContain('(Wasser \\(K\xfcche\\) \\\\ Keller)');
    expect(text).toContain('(? not Latin-1)');
  });

  it('writes a PNG with the size asked for and rows that inflate', () => {
    const png = makePng(20, [10, 20, 30]);
    expect(hasMagicOf(png, 'image/png')).toBe(true);
    expect(png.readUInt32BE(16)).toBe(20);
    const idatLength = png.readUInt32BE(33);
    expect(png.toString('latin1', 37, 41)).toBe('IDAT');
    expect(inflateSync(png.subarray(41, 41 + idatLength))).toHaveLength(20 * (1 + 20 * 3));
  });

  it('writes a baseline JPEG of any shade, bright, dark or middle', () => {
    for (const shade of [1, 40, 128, 192, 254]) {
      const jpeg = makeJpeg(shade);
      expect(hasMagicOf(jpeg, 'image/jpeg')).toBe(true);
      expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
      expect(jpeg.includes(Buffer.from([0xff, 0xc0]))).toBe(true);
    }
    expect(makeJpeg(40).equals(makeJpeg(192))).toBe(false);
  });
});
