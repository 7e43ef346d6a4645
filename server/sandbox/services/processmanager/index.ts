import type { ServiceModule } from '../service.ts';
import { sqlFiles } from '../service.ts';
import { decisionTableRouter } from './decision-table-routes.ts';
import { workflowRouter } from './workflow-routes.ts';
import { closeRuntime, openRuntime, startFromEvent } from './store.ts';
import { seedWorkflows } from './seed-workflows.ts';
import { openHttpAccess } from './http-call.ts';

/**
 * The process manager: workflows (BPMN) run by a real engine, their instances, the service
 * events that start them, decision tables (DMN). docs/decisions/011-workflow-engine.md.
 */
export const processManagerService: ServiceModule = {
  name: 'processmanager',
  prefix: '/processmanager/v1',
  routers: [workflowRouter, decisionTableRouter],
  migrations: sqlFiles('processmanager', ['032-processmanager.sql']),
  async seed(env) {
    await seedWorkflows(env);
  },
  // Every running instance resumes where its saved state left it; domain events start new ones.
  async start(ctx) {
    // Before the first instance resumes: an http.call task of one waits for the address.
    const closeHttp = openHttpAccess(ctx.db, { signer: ctx.signer, ownUrl: ctx.ownUrl });
    const runtime = openRuntime(ctx.db, ctx.clock, ctx.logger);
    const resumed = await runtime.resumeAll();
    if (resumed) ctx.logger.info({ resumed }, 'workflow instances resumed');
    const off = ctx.events.on(async (event) => {
      try {
        await startFromEvent(ctx.db, runtime, event);
      } catch (err) {
        ctx.logger.error({ err, event: event.type }, 'a workflow could not start');
      }
    });
    return () => {
      off();
      closeRuntime(ctx.db);
      closeHttp();
    };
  },
  // Tasks set claim statuses and put follow-ups on leads; the tenants' users do the work.
  dependsOn: ['tenantservice', 'claimservice', 'insuranceservice', 'notificationservice'],
};
