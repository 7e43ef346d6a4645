import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { documentRouter } from './document-routes.ts';
import { seedDocuments } from './seed-documents.ts';
import { closePdfRenderer } from './pdf-renderer.ts';

/** The document service: documents of leads, policies and claims, their bytes in the store. */
export const documentService: ServiceModule = {
  name: 'documentservice',
  prefix: '/documentservice/v1',
  routers: [documentRouter],
  migrations: sqlFiles('document', ['008-documents.sql', '012-document-storage.sql']),
  async seed({ db, logger, store }) {
    // The demo claims' documents, and the bytes of every seeded document: after claims.
    await seedDocuments(db, logger, store);
  },
  // The PDF renderer's browser starts with the first document; it closes with the sandbox.
  async start(ctx) {
    return () => closePdfRenderer(ctx);
  },
  dependsOn: ['tenantservice', 'insuranceservice', 'claimservice'],
};
