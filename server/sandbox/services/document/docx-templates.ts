import PizZip from 'pizzip';
import Docxtemplater from 'docxtemplater';
import mammoth from 'mammoth';
import type { ErrorIssue } from '#common/contracts/error.ts';
import type { DocxEntityType } from '#common/contracts/docx-template.ts';
import {
  documentSampleOf,
  documentVariablesOf,
  formatDay,
  formatMoney,
  type VariableRecord,
} from '#server/sandbox/services/notification/index.ts';
import type { PdfRenderer } from './pdf-renderer.ts';

/**
 * Docx templates (issue 19, decision 019): a Word file's tags filled with a record's facts by
 * docxtemplater, with its own default parser, which looks a tag up as a key of the data and
 * nothing else (no expressions, no JavaScript of the template's). The facts are the document
 * kinds' catalogue (the PDF templates' variables), flattened to dotted keys so that
 * `{policy.number}` is one plain key for that parser; inside a loop the item's fields are keys
 * of the item, the outer ones are found in the outer scope.
 */

/** A docx unpacks to at most this much (a zip bomb is refused before docxtemplater reads it). */
const MAX_UNPACKED_BYTES = 40 * 1024 * 1024;
/** The files docxtemplater fills (and so checks) in a Word document. */
const DOCUMENT_PART = 'word/document.xml';

export interface TagUse {
  tag: string;
  /** Where it is: the file, its paragraph (1-based) and the character in it (1-based). */
  file: string;
  paragraph: number;
  column: number;
}

export interface DocxCheck {
  problems: ErrorIssue[];
  /** The distinct tags the file uses, in order of their first use. */
  tags: string[];
}

type Values = Record<string, unknown>;

/**
 * The catalogue's values as the template's data: every variable under its dotted path, a day as
 * `31.12.2026`, a `…Cents` amount also formatted beside it without the suffix (`premiumCents`
 * 48872 and `premium` "488,72 €"), lists as lists of such items. Only catalogue variables pass:
 * a fact the catalogue does not name is no tag.
 */
export function docxValues(variables: VariableRecord, values: Values): Values {
  const out: Values = {};
  const walk = (vars: VariableRecord, from: Values, prefix: string, into: Values) => {
    const currency = typeof from.currency === 'string' && from.currency ? from.currency : 'EUR';
    for (const [name, type] of Object.entries(vars)) {
      const key = prefix + name;
      const value = from[name];
      if (type === 'date') into[key] = formatDay(value);
      else if (type === 'number') {
        into[key] = typeof value === 'number' ? value : '';
        if (name.endsWith('Cents') && name.length > 5) {
          into[prefix + name.slice(0, -5)] = formatMoney(value, currency);
        }
      } else if (type === 'text') into[key] = value == null ? '' : String(value);
      else if (Array.isArray(type)) {
        const item = type[0];
        into[key] = (Array.isArray(value) ? value : []).map((member: unknown) => {
          if (typeof item !== 'object') return { value: member };
          const row: Values = {};
          walk(item as VariableRecord, (member ?? {}) as Values, '', row);
          return row;
        });
      } else {
        walk(type as VariableRecord, (value ?? {}) as Values, `${key}.`, into);
      }
    }
  };
  walk(variables, values, '', out);
  return out;
}

/** The catalogue of an entity's templates (its document kind's, the common ones included). */
export const docxVariablesOf = (entity: DocxEntityType): VariableRecord =>
  documentVariablesOf(entity);

/** The tags an entity's template may use, as a template writes them, with what they are. */
export function docxTagsOf(entity: DocxEntityType): { tag: string; type: string }[] {
  const sample = docxValues(docxVariablesOf(entity), sampleOf(entity));
  return Object.entries(sample).flatMap(([tag, value]) =>
    Array.isArray(value)
      ? [
          { tag, type: 'list' },
          ...Object.keys((value[0] ?? {}) as Values).map((member) => ({
            tag: `${tag}[].${member}`,
            type: 'item',
          })),
        ]
      : [{ tag, type: typeof value === 'number' ? 'number' : 'text' }],
  );
}

const sampleOf = (entity: DocxEntityType) =>
  documentSampleOf(entity, {
    tenantName: 'Nordlicht Versicherung',
    title: '',
    issuedAt: '2026-01-01',
  });

/** The text offset of docxtemplater (the characters of the text runs) as paragraph and column. */
function locate(xml: string, offset: number): { paragraph: number; column: number } {
  let paragraph = 0;
  let seen = 0;
  for (const match of xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)) {
    paragraph++;
    let length = 0;
    for (const run of match[0].matchAll(/<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>/g)) {
      length += run[1]!.length;
    }
    if (offset < seen + length) return { paragraph, column: offset - seen + 1 };
    seen += length;
  }
  return { paragraph: Math.max(paragraph, 1), column: Math.max(offset - seen + 1, 1) };
}

interface XtError {
  properties?: {
    id?: string;
    xtag?: string;
    offset?: number;
    file?: string;
    errors?: XtError[];
  };
}

function unpackedSize(zip: PizZip): number {
  let total = 0;
  for (const file of Object.values(zip.files)) {
    // pizzip keeps each entry's declared size until it is read.
    const size = (file as unknown as { _data?: { uncompressedSize?: number } })._data
      ?.uncompressedSize;
    total += typeof size === 'number' ? size : 0;
  }
  return total;
}

/** The zip of a Word document, or the problem that it is none. */
function openDocx(bytes: Uint8Array): { zip: PizZip } | { problem: ErrorIssue } {
  let zip: PizZip;
  try {
    zip = new PizZip(bytes);
  } catch {
    return { problem: { path: 'file', code: 'not_docx' } };
  }
  if (!zip.file(DOCUMENT_PART)) return { problem: { path: 'file', code: 'not_docx' } };
  if (unpackedSize(zip) > MAX_UNPACKED_BYTES) {
    return { problem: { path: 'file', code: 'too_large_unpacked' } };
  }
  return { zip };
}

interface Part {
  type?: string;
  value?: unknown;
  module?: string;
  offset?: number;
  location?: string;
  subparsed?: Part[];
}

/**
 * A module that only reads: every tag of each file with its place, after docxtemplater parsed
 * it (its `postparse` hook returns what it got). Raw XML tags (`{@…}`) are noted to be refused:
 * a record's text must never become markup of the document.
 */
function tagReader() {
  const uses: (TagUse & { raw: boolean; offset: number })[] = [];
  const xmlOf = new Map<string, string>();
  let zip: PizZip | null = null;
  const module = {
    name: 'TagReader',
    set(options: { zip?: PizZip }) {
      if (options.zip) zip = options.zip;
    },
    postparse(parsed: Part[], options: { filePath?: string }) {
      const file = options.filePath ?? DOCUMENT_PART;
      if (!xmlOf.has(file)) xmlOf.set(file, zip?.file(file)?.asText() ?? '');
      const walk = (parts: Part[]) => {
        for (const part of parts) {
          if (part.type === 'placeholder' && typeof part.value === 'string') {
            // A loop's closing tag repeats its name: the opening one is the use.
            if (part.location !== 'end' && part.offset !== undefined) {
              const at = locate(xmlOf.get(file)!, part.offset);
              uses.push({
                tag: part.value,
                file,
                ...at,
                raw: part.module === 'rawxml',
                offset: part.offset,
              });
            }
          }
          if (part.subparsed) walk(part.subparsed);
        }
      };
      walk(parsed);
      return parsed;
    },
  };
  const distinct = () => {
    const seen = new Set<string>();
    return uses.filter((u) => {
      const key = `${u.file}:${u.offset}:${u.tag}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  };
  return { module, uses: distinct, xmlOf };
}

const OPTIONS = {
  paragraphLoop: true,
  linebreaks: true,
  // Errors are answers here, not console output.
  errorLogging: false,
} as const;

/**
 * Checks a template for an entity: a Word file docxtemplater compiles, whose every tag is a
 * variable of the entity (or a member of the list it loops over), no raw XML tag. Each problem
 * names its tag and where it is (paragraph, character), so that the author finds it in Word.
 */
export function checkDocx(bytes: Uint8Array, entity: DocxEntityType): DocxCheck {
  const opened = openDocx(bytes);
  if ('problem' in opened) return { problems: [opened.problem], tags: [] };
  const reader = tagReader();
  const issueOf = (e: XtError): ErrorIssue => {
    const p = e.properties ?? {};
    const file = p.file ?? DOCUMENT_PART;
    const xml = reader.xmlOf.get(file) ?? opened.zip.file(file)?.asText() ?? '';
    const at = typeof p.offset === 'number' ? locate(xml, p.offset) : null;
    return {
      path: 'file',
      code: p.id && /^[a-z][a-z0-9_]*$/.test(p.id) ? p.id : 'invalid_template',
      ...(p.xtag ? { name: p.xtag } : {}),
      ...(at ? { line: at.paragraph, column: at.column } : {}),
    };
  };
  const missing: ErrorIssue[] = [];
  try {
    const doc = new Docxtemplater(opened.zip, {
      ...OPTIONS,
      // Its hooks are called as (parsed, options); the typings name an older signature.
      modules: [reader.module as unknown as Docxtemplater.DXT.Module],
      // A tag the entity's sample has no value for is no variable of the entity.
      nullGetter: (part) => {
        const use = reader
          .uses()
          .find((u) => u.tag === part.value && u.offset === (part as Part).offset);
        missing.push({
          path: 'file',
          code: 'unknown_tag',
          name: String(part.value),
          ...(use ? { line: use.paragraph, column: use.column } : {}),
        });
        return part.module ? false : '';
      },
    });
    doc.render(docxValues(docxVariablesOf(entity), sampleOf(entity)));
  } catch (err) {
    const e = err as XtError;
    const problems = e.properties?.errors?.length ? e.properties.errors.map(issueOf) : [issueOf(e)];
    return { problems, tags: [] };
  }
  const uses = reader.uses();
  const raw: ErrorIssue[] = uses
    .filter((u) => u.raw)
    .map((u) => ({
      path: 'file',
      code: 'raw_tag_refused',
      name: u.tag,
      line: u.paragraph,
      column: u.column,
    }));
  const seen = new Set<string>();
  const problems = [...raw, ...missing].filter((p) => {
    const key = `${p.code}:${p.name}:${p.line}:${p.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const ordered = [...uses].sort((a, b) => a.file.localeCompare(b.file) || a.offset - b.offset);
  return { problems, tags: [...new Set(ordered.map((u) => u.tag))] };
}

/**
 * Fills a checked template with a record's values: the same docxtemplater, the same default
 * parser; a variable the record has no value for prints empty.
 */
export function fillDocx(bytes: Uint8Array, entity: DocxEntityType, values: Values): Buffer {
  const opened = openDocx(bytes);
  if ('problem' in opened) throw new Error('the stored template is no Word document');
  const doc = new Docxtemplater(opened.zip, { ...OPTIONS, nullGetter: () => '' });
  doc.render(docxValues(docxVariablesOf(entity), values));
  return doc.toBuffer({ compression: 'DEFLATE' });
}

/** Mammoth's HTML printed like the document templates (the same fonts, no ligatures). */
const PAGE_STYLE = `
  body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 11pt;
         line-height: 1.4; color: #111; margin: 0; font-variant-ligatures: none; }
  table { border-collapse: collapse; }
  td, th { vertical-align: top; padding: 2pt 6pt 2pt 0; }
  img { max-width: 100%; }`;

const escapeText = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/**
 * A filled docx as PDF: mammoth turns it into HTML (its text escaped, images inline, no file
 * outside the document read), the sandbox's Chromium prints it with JavaScript off and the
 * network closed (pdf-renderer.ts). Word's page layout (headers, columns, exact spacing) is not
 * kept: the text, headings, lists, tables and images are.
 */
export async function docxToPdf(
  renderer: PdfRenderer,
  docx: Buffer,
  title: string,
): Promise<Buffer> {
  const { value: body } = await mammoth.convertToHtml(
    { buffer: docx },
    { externalFileAccess: false },
  );
  const html = `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>${escapeText(title)}</title><style>${PAGE_STYLE}</style></head><body>${body}</body></html>`;
  return renderer.render({ html });
}

/** A minimal Word document: one paragraph per line (the seed's template, the tests' files). */
export function makeDocx(lines: readonly string[]): Buffer {
  const escape = (s: string) =>
    s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
  const paragraphs = lines
    .map((line) => `<w:p><w:r><w:t xml:space="preserve">${escape(line)}</w:t></w:r></w:p>`)
    .join('');
  const zip = new PizZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>' +
      '</Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>' +
      '</Relationships>',
  );
  zip.file(
    DOCUMENT_PART,
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      `<w:body>${paragraphs}</w:body></w:document>`,
  );
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
