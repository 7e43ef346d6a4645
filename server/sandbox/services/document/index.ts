import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { documentRouter } from './document-routes.ts';
import { productDocumentRouter } from './product-document-routes.ts';
import { seedDocuments } from './seed-documents.ts';
import { closePdfRenderer } from './pdf-renderer.ts';
import { docTemplateRouter } from './doc-template-routes.ts';
import { ensureDefaultDocTemplates } from './doc-template-store.ts';
import { issueSchedulesOn } from './policy-schedule.ts';

/**
 * The document service: documents of leads, policies and claims, their bytes in the store; the
 * workspaces' document layouts and templates, printed to PDF by Chromium (issue 19, decision 018).
 */
export const documentService: ServiceModule = {
  name: 'documentservice',
  prefix: '/documentservice/v1',
  routers: [docTemplateRouter, productDocumentRouter, documentRouter],
  migrations: sqlFiles('document', [
    '008-documents.sql',
    '012-document-storage.sql',
    '042-document-templates.sql',
  ]),
  async seed({ db, logger, store, clock }) {
    // The demo claims' documents, and the bytes of every seeded document: after claims.
    await seedDocuments(db, logger, store);
    // Every workspace's standard layout and policy schedule (issue 19), on each start.
    await ensureDefaultDocTemplates(db, new Date(clock.now()));
  },
  // Policy schedules are issued as policies are created and changed (issue 19). The PDF
  // renderer's browser starts with the first document printed; it closes with the sandbox.
  async start(ctx) {
    const off = ctx.events.on(
      issueSchedulesOn(ctx.db, ctx.logger, () => new Date(ctx.clock.now())),
    );
    return async () => {
      off();
      await closePdfRenderer(ctx);
    };
  },
  dependsOn: ['tenantservice', 'insuranceservice', 'claimservice', 'notificationservice'],
};
