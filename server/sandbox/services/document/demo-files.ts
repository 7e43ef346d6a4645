import { crc32, deflateSync } from 'node:zlib';

/**
 * Small but real files for the demo world's documents: a PDF with a few lines of text, a PNG and
 * a JPEG of a plain colour. Real so that a download opens in a viewer and the storage's magic-byte
 * check has nothing to forgive; generated, so the repository holds no binaries and every document
 * differs (the text names its claim, the shade follows its index).
 */

const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** PDF's literal strings: backslash and parentheses escaped, outside Latin-1 replaced. */
const pdfText = (s: string) => s.replace(/[^\x20-\xff]/g, '?').replace(/([\\()])/g, '\\$1');

/** A one-page A4 PDF 1.4 with the lines in Helvetica, its cross-reference table computed. */
export function makePdf(title: string, lines: readonly string[]): Buffer {
  const text = [
    'BT /F1 18 Tf 56 780 Td',
    `(${pdfText(title)}) Tj`,
    '/F1 11 Tf 0 -28 Td 16 TL',
    ...lines.map((line) => `(${pdfText(line)}) '`),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R ' +
      '/Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${latin1(text).length} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(latin1(body).length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = latin1(body).length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return latin1(body);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG of `size` x `size` pixels in one RGB colour, with a darker diagonal band. */
export function makePng(size: number, rgb: readonly [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter, no interlace
  const rows = Buffer.alloc(size * (1 + size * 3));
  for (let y = 0; y < size; y += 1) {
    const row = y * (1 + size * 3);
    for (let x = 0; x < size; x += 1) {
      const band = Math.abs(x - y) < size / 8 ? 0.6 : 1;
      rows.set(
        rgb.map((c) => Math.round(c * band)),
        row + 1 + x * 3,
      );
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const segment = (marker: number, data: number[]) => [
  0xff,
  marker,
  (data.length + 2) >> 8,
  (data.length + 2) & 0xff,
  ...data,
];

/**
 * A baseline JPEG of 16 x 16 grey pixels of one shade (1..254). A flat block has only its DC
 * coefficient, 8 * (shade - 128) with a quantiser of 1, so two tiny Huffman tables do: DC
 * categories 0 and that of the first block (two 2-bit codes), and end-of-block for AC (code 0).
 */
export function makeJpeg(shade: number): Buffer {
  const dc = 8 * (Math.min(254, Math.max(1, Math.round(shade))) - 128);
  const category = dc === 0 ? 0 : Math.floor(Math.log2(Math.abs(dc))) + 1;
  // Negative values are sent as their ones' complement in `category` bits.
  const magnitude = dc >= 0 ? dc : dc + (1 << category) - 1;
  let bits = '';
  const dcSymbols = category === 0 ? [0] : [0, category];
  const dcCode = (symbol: number) => (dcSymbols.length === 1 ? '00' : symbol === 0 ? '00' : '01');
  for (let block = 0; block < 4; block += 1) {
    const value = block === 0 ? category : 0;
    bits += dcCode(value);
    if (block === 0 && category > 0) bits += magnitude.toString(2).padStart(category, '0');
    bits += '0'; // AC: end of block
  }
  bits = bits.padEnd(Math.ceil(bits.length / 8) * 8, '1');
  const scan: number[] = [];
  for (let i = 0; i < bits.length; i += 8) {
    const byte = parseInt(bits.slice(i, i + 8), 2);
    scan.push(byte);
    if (byte === 0xff) scan.push(0x00); // byte stuffing
  }
  const counts = (n: number, length: number) =>
    Array.from({ length: 16 }, (_, i) => (i === length - 1 ? n : 0));
  return Buffer.from([
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]),
    ...segment(0xc4, [0x00, ...counts(dcSymbols.length, 2), ...dcSymbols]),
    ...segment(0xc4, [0x10, ...counts(1, 1), 0x00]),
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]),
    ...scan,
    0xff,
    0xd9,
  ]);
}
