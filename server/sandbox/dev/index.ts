import express from 'express';
import type { SandboxContext } from '#server/sandbox/sandbox.ts';
import { chatWidgetRouter } from './chat-widget-routes.ts';
import { idpRouter } from './idp-routes.ts';
import { outboxRouter } from './outbox.ts';

/**
 * What the sandbox serves beside the upstream services, for testers and demos. The tools (the
 * identity-provider page that signs anyone in, the outbox that shows reset links) exist only when
 * `ctx.tools` is on (SANDBOX_TOOLS); the chat-widget stand-in is a harmless demo script and is
 * served either way, as the BFF forwards /chat-widget/* whether the tools are on or not.
 */
export function mountDevTools(app: express.Express, ctx: SandboxContext): void {
  if (ctx.tools) {
    app.use('/sandbox', outboxRouter(ctx.db));
    app.use(
      '/sandbox-idp',
      express.urlencoded({ extended: false, limit: '10kb' }),
      idpRouter(ctx.db, ctx.clock),
    );
  }
  app.use('/chat-widget', chatWidgetRouter());
}
