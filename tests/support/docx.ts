import PizZip from 'pizzip';

/** A .docx's body as plain text, one line per paragraph: what a filled template says. */
export const textOfDocx = (bytes: Uint8Array) =>
  new PizZip(bytes)
    .file('word/document.xml')!
    .asText()
    .replace(/<\/w:p>/g, '\n')
    .replace(/<[^>]+>/g, '');
