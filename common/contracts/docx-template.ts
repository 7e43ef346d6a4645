import * as v from 'valibot';
import { Filename } from './product-document.ts';

/**
 * Docx templates of the document service (issue 19; spec: "GET and POST
 * /documentservice/v1/docx-templates. GET and DELETE /{code}. GET /{code}/download-url"; decision
 * 019): Word files with docxtemplater tags (`{policy.number}`, loops `{#policy.premiumItems}…
 * {/policy.premiumItems}`), uploaded by a signed form, checked when the file has arrived, filled
 * with one record's facts as DOCX or PDF. Shared by the sandbox, which checks, and the screen,
 * which refuses a wrong file before asking anything.
 */

export const DOCX_CONTENT_TYPE =
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
/** A .docx is a zip: its bytes begin with a local file header. */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

export const hasDocxMagic = (bytes: Uint8Array): boolean =>
  bytes.length >= ZIP_MAGIC.length && ZIP_MAGIC.every((b, i) => bytes[i] === b);

export const isDocxName = (filename: string): boolean => /\.docx$/i.test(filename.trim());

/**
 * The records a template is for: those whose facts the sandbox's own documents print (the
 * document kinds' catalogue). A customer has no facts there yet, so no customer templates.
 */
export const DOCX_ENTITY_TYPES = ['policy', 'claim', 'invoice'] as const;
export type DocxEntityType = (typeof DOCX_ENTITY_TYPES)[number];
export const isDocxEntityType = (value: string): value is DocxEntityType =>
  (DOCX_ENTITY_TYPES as readonly string[]).includes(value);

export const DOCX_FORMATS = ['docx', 'pdf'] as const;
export type DocxFormat = (typeof DOCX_FORMATS)[number];

const DocxFilename = v.pipe(Filename, v.check(isDocxName, 'not_docx'));

/** POST /docx-templates: the record, answered with the signed form its file is sent with. */
export const DocxTemplateCreateBody = v.object({
  name: v.pipe(
    v.string('required'),
    v.trim(),
    v.minLength(1, 'required'),
    v.maxLength(120, 'too_long'),
  ),
  entityType: v.picklist(DOCX_ENTITY_TYPES, 'unknown_entity'),
  filename: DocxFilename,
});
export type DocxTemplateCreate = v.InferInput<typeof DocxTemplateCreateBody>;

/** POST /docx-templates/{code}/render: one record of the template's entity, as DOCX or PDF. */
export const DocxRenderBody = v.object({
  entityType: v.optional(v.picklist(DOCX_ENTITY_TYPES, 'unknown_entity')),
  entityId: v.pipe(v.string('required'), v.trim(), v.minLength(1, 'required'), v.maxLength(80)),
  format: v.optional(v.picklist(DOCX_FORMATS, 'unknown_format'), 'docx'),
});
export type DocxRender = v.InferInput<typeof DocxRenderBody>;

/**
 * `pending`: signed, its file not (yet) arrived; `ready`: checked, can be filled. A file that
 * fails the check is refused: the template is gone, and reading it answers 422 with the problems.
 */
export type DocxTemplateStatus = 'pending' | 'ready';

export interface DocxTemplate {
  id: number;
  code: string;
  name: string;
  filename: string;
  entityType: DocxEntityType;
  status: DocxTemplateStatus;
  sizeBytes: number | null;
  /** The tags the file uses, as docxtemplater reads them (`policy.number`). */
  tags: string[];
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  updatedBy: string;
  createdByName: string | null;
  updatedByName: string | null;
}

/** The answer of POST /docx-templates: the record and where its file goes. */
export interface DocxTemplateUpload {
  docxTemplate: DocxTemplate;
  url: string;
  fields: Record<string, string>;
}

/**
 * A problem of a refused file, as an error issue: the docxtemplater error's id as `code`
 * (`unclosed_tag`, `unopened_loop`, `unknown_tag`, `not_docx`, …), the tag as `name`, and where:
 * `line` is the paragraph (1-based, in the file docxtemplater names), `column` the character in
 * it (1-based).
 */
export const DOCX_PROBLEM_CODES = [
  'not_docx',
  'too_large_unpacked',
  'unknown_tag',
  'unclosed_tag',
  'unopened_tag',
  'unclosed_loop',
  'unopened_loop',
  'unbalanced_loop',
  'closing_tag_does_not_match_opening_tag',
  'duplicate_open_tag',
  'duplicate_close_tag',
  'raw_xml_tag_should_be_only_text_in_paragraph',
  'raw_tag_outerxml_invalid',
  'file_has_invalid_xml',
  'invalid_template',
] as const;
