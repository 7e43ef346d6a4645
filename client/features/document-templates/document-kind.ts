export const documentsPath = (accountIndex: number, code?: string) =>
  `/u/${accountIndex}/editor/documents${code ? `/${encodeURIComponent(code)}` : ''}`;
