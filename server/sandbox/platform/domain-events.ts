/**
 * What happened in a service that another may act on (a claim created, a lead's status changed,
 * a policy terminated): the process manager starts workflow instances from them. In process,
 * because the sandbox is one process: every BFF instance proxies to the same sandbox, so an
 * event is seen once however many BFFs run (docs/decisions/011-workflow-engine.md). One bus per
 * sandbox (on its context), so that two sandboxes in one test process never hear each other.
 */

import { WORKFLOW_EVENT_TYPES } from '#common/contracts/processmanager.ts';

/** The events a service event may bind a workflow to (the processmanager contract lists them). */
export const DOMAIN_EVENT_TYPES = WORKFLOW_EVENT_TYPES;
/**
 * Besides those, events that no workflow binds to (yet): a policy created and a new version of it
 * applied, on which the document service issues the policy schedule, and an invoice created by a
 * user (not by the billing run), on which it issues the invoice's document (issue 19); a product
 * version going active (published), on which it issues the version's IPID (decision 020).
 */
export type DomainEventType =
  | (typeof DOMAIN_EVENT_TYPES)[number]
  | 'policy.created'
  | 'policy.version_created'
  | 'invoice.created'
  | 'product_version.published';

export interface DomainEvent {
  type: DomainEventType;
  tenantId: number;
  /** The record's code: the instance's entityCode. */
  entityCode: string;
  /** Who caused it (a user code), for the instance's audit stamps. */
  by: string;
  /** What a workflow may read as variables (the new status, the amount, ...). */
  data: Record<string, unknown>;
}

export type DomainEventHandler = (event: DomainEvent) => Promise<void>;

export class DomainEvents {
  private readonly handlers: DomainEventHandler[] = [];

  on(handler: DomainEventHandler): () => void {
    this.handlers.push(handler);
    return () => {
      const at = this.handlers.indexOf(handler);
      if (at >= 0) this.handlers.splice(at, 1);
    };
  }

  /**
   * Tells every handler, after the emitter's answer: call it once the change is committed. A
   * handler's failure is logged by the handler, never the emitter's: the claim is created even
   * when no workflow can start.
   */
  emit(event: DomainEvent): void {
    for (const handler of this.handlers) {
      setImmediate(() => {
        handler(event).catch(() => {});
      });
    }
  }
}
