import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { documentRouter } from './document-routes.ts';
import { productDocumentRouter } from './product-document-routes.ts';
import { seedDocuments } from './seed-documents.ts';
import { closePdfRenderer } from './pdf-renderer.ts';
import { docTemplateRouter } from './doc-template-routes.ts';
import { docxTemplateRouter } from './docx-template-routes.ts';
import { ensureDemoDocxTemplates } from './docx-template-seed.ts';
import { ensureDefaultDocTemplates } from './doc-template-store.ts';
import { issueDocumentsOn } from './issued-documents.ts';
import { ISSUERS } from './issuers.ts';
import { DOCUMENT_ISSUED } from '#common/contracts/notification.ts';
import { staticDocumentRouter } from './static-document-routes.ts';
import { ensureStaticPublications } from './static-documents.ts';
import { ipidIssuer, issueMissingIpids } from './ipid.ts';

/**
 * The document service: documents of leads, policies, claims and invoices, their bytes in the store; the
 * workspaces' document layouts and templates, printed to PDF by Chromium (issue 19, decision 018).
 */
export const documentService: ServiceModule = {
  name: 'documentservice',
  prefix: '/documentservice/v1',
  routers: [
    docTemplateRouter,
    docxTemplateRouter,
    staticDocumentRouter,
    productDocumentRouter,
    documentRouter,
  ],
  migrations: sqlFiles('document', [
    '008-documents.sql',
    '012-document-storage.sql',
    '042-document-templates.sql',
    '043-docx-templates.sql',
    '044-static-documents-and-ipid.sql',
  ]),
  async seed({ db, logger, store, clock }) {
    // The demo claims' documents, and the bytes of every seeded document: after claims.
    await seedDocuments(db, logger, store);
    // Every workspace's standard layout and system templates (issue 19), on each start.
    await ensureDefaultDocTemplates(db, new Date(clock.now()));
    // And a docx template to fill (a policy confirmation letter), once per workspace.
    await ensureDemoDocxTemplates(db, store, new Date(clock.now()));
    // The seeded static documents' first publication and the active product versions' IPIDs
    // (decision 020), each once; printed on their first download.
    await ensureStaticPublications(db, new Date(clock.now()));
    await issueMissingIpids(db, new Date(clock.now()));
  },
  // Policy schedules, claim acknowledgements and invoices are issued as their records are
  // created (issue 19, issuers.ts), each told to the workspace's sockets (DOCUMENT_ISSUED). The
  // PDF renderer's browser starts with the first document printed; it closes with the sandbox.
  async start(ctx) {
    const off = ctx.events.on(
      issueDocumentsOn(
        ctx.db,
        ctx.logger,
        [...ISSUERS, ipidIssuer],
        () => new Date(ctx.clock.now()),
        (tenantId, document) => ctx.hub.publish(tenantId, { ...DOCUMENT_ISSUED, ...document }),
      ),
    );
    return async () => {
      off();
      await closePdfRenderer(ctx);
    };
  },
  // Billing and payment for the invoice document's facts (issuers.ts).
  dependsOn: [
    'tenantservice',
    'insuranceservice',
    'claimservice',
    'notificationservice',
    'billingservice',
    'paymentservice',
  ],
};
