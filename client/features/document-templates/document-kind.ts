import type { TFunction } from 'i18next';

/** A document kind (`policy`, `ipid`, …, docs/contracts.md) in the reader's language. */
export const documentKindLabel = (t: TFunction<'templates'>, kind: string): string =>
  t(`document_kinds.${kind}`, { defaultValue: kind });

export const documentsPath = (accountIndex: number, code?: string) =>
  `/u/${accountIndex}/editor/documents${code ? `/${encodeURIComponent(code)}` : ''}`;
