import type { APIRequestContext, Page } from '@playwright/test';
import type { AnyEventObject, Snapshot } from 'xstate';
import {
  pathEvents,
  pathsInput,
  workflowInstanceActionsMachine,
} from '#machines/workflow-instance-actions.machine.ts';
import { describePath } from '#machines/testing/model.ts';
import { apiAs, expect, signIn, test } from './fixtures.ts';
import { expectCheckForEveryState, modelPaths, walkModel } from './model-walk.ts';

/**
 * The instance-actions machine's generated paths, walked on the monitor's instance page against
 * the real BFF and sandbox, each on a failed instance of its own (the model starts failed: cancel
 * and retry are both offered). The instances come from a probe workflow of this spec's own,
 * bound to "lead status changed" and failing in a decision table that does not exist, for the
 * leads this spec moves only: moving one of them makes one failed instance. Left out, with the
 * reason:
 * - `action.complete`: a failed instance waits in no user task (the English monitor spec and the
 *   integration tests complete one);
 * - `instance.loaded`: the page's own reads, not a user's action (the refusal's reload is checked
 *   in `refused`);
 * - an action failing without an answer (5xx, network), and so `failed`: not something a user
 *   can do;
 * - a cancel or retry from `done`: the model's instance is finished there, and the page shows no
 *   button for it.
 */
function walkable(state: Snapshot<unknown>, event: AnyEventObject): boolean {
  if (event.type === 'action.complete' || event.type === 'instance.loaded') return false;
  // Done, the model's instance is completed or cancelled: the page offers no action to click.
  const value = (state as unknown as { value: unknown }).value;
  if (value === 'done' && (event.type === 'action.cancel' || event.type === 'action.retry'))
    return false;
  if (event.type === 'xstate.error.actor.act') return event.error?.status === 409;
  return true;
}

const { model, paths } = modelPaths(workflowInstanceActionsMachine, {
  input: pathsInput,
  events: pathEvents,
  filterEvents: walkable,
});

const ADMIN = 'admin@demo.test';
const PM = '/api/0/processmanager/v1';
const LEADS = '/api/0/insuranceservice/v1/leads';
const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
const PROBE = `e2e-probe-${stamp}`;

/** Start, then for the chosen leads a rule task on a table that does not exist; else the end. */
const probeBpmn = (leads: readonly string[]) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="probe-defs" targetNamespace="https://demo.test/bpmn">
  <process id="probe" isExecutable="true">
    <startEvent id="start" name="Lead moved"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="gw"/>
    <exclusiveGateway id="gw" name="One of ours?" default="f3"/>
    <sequenceFlow id="f2" sourceRef="gw" targetRef="rate"><conditionExpression xsi:type="tFormalExpression">\${${leads.map((l) => `entityCode = "${l}"`).join(' or ')}}</conditionExpression></sequenceFlow>
    <sequenceFlow id="f3" sourceRef="gw" targetRef="end"/>
    <businessRuleTask id="rate" name="Rate the lead" implementation="dmn:missing-${stamp}"/>
    <sequenceFlow id="f4" sourceRef="rate" targetRef="end"/>
    <endEvent id="end" name="Done"/>
  </process>
</definitions>`;

interface Instance {
  code: string;
  entityCode: string;
  status: string;
  workflow: { code: string };
  workflowVersion: { versionNumber: number };
}

async function readInstance(api: APIRequestContext, code: string): Promise<Instance> {
  const response = await api.get(`${PM}/workflow-instances/${code}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { workflowInstance: Instance }).workflowInstance;
}

/** One failed probe instance per lead: the lead moves, the probe starts and fails. */
async function failedInstances(api: APIRequestContext, count: number): Promise<Instance[]> {
  const listed = await api.get(`${LEADS}?pageSize=100&filter=status%3Dnew`);
  expect(listed.ok()).toBe(true);
  const all = ((await listed.json()) as { items: { code: string; version: number }[] }).items;
  // From the middle of the list: other specs take new leads from its start and its end.
  const leads = all.slice(Math.floor(all.length / 2) - count, Math.floor(all.length / 2));
  expect(leads, 'enough new leads for the paths').toHaveLength(count);

  const created = await api.post(`${PM}/workflows`, {
    multipart: {
      name: `Probe ${stamp}`,
      code: PROBE,
      file: {
        name: 'probe.bpmn',
        mimeType: 'application/xml',
        buffer: Buffer.from(probeBpmn(leads.map((l) => l.code))),
      },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const workflowId = ((await created.json()) as { workflow: { id: number } }).workflow.id;
  const bound = await api.post(`${PM}/service-event/define`, {
    data: { eventType: 'lead.status_changed', workflowId },
  });
  expect(bound.status()).toBe(201);

  // All leads moved at once, then one list of the probe's instances read until each has failed
  // (one by one, a move and its wait each, this took most of a minute on a loaded box).
  await Promise.all(
    leads.map(async (lead) => {
      const moved = await api.patch(`${LEADS}/${lead.code}`, {
        data: { version: lead.version, status: 'contacted' },
      });
      expect(moved.ok(), await moved.text()).toBe(true);
    }),
  );
  let failed: Instance[] = [];
  await expect
    .poll(async () => {
      const filter = encodeURIComponent(`workflowId=${workflowId}&status=failed`);
      const res = await api.get(`${PM}/workflow-instances?pageSize=100&filter=${filter}`);
      failed = ((await res.json()) as { items: Instance[] }).items;
      return failed.length;
    })
    .toBe(count);
  // In the order of the leads, as the paths take them.
  const byLead = new Map(failed.map((i) => [i.entityCode, i]));
  return leads.map((lead) => byLead.get(lead.code)!);
}

const dialogOf = (page: Page, action: 'cancel' | 'retry') =>
  page.getByRole('dialog', {
    name: action === 'cancel' ? 'Cancel this instance?' : 'Retry this instance?',
  });
const anyDialog = (page: Page) => page.getByRole('dialog');

/** Which action's dialog a snapshot is in (the model's `confirming.<action>`). */
const actionOf = (state: Snapshot<unknown> | undefined): 'cancel' | 'retry' => {
  const value = JSON.stringify((state as unknown as { value?: unknown } | undefined)?.value);
  return value?.includes('retry') ? 'retry' : 'cancel';
};

const stateChecks: Record<
  string,
  (page: Page, api: APIRequestContext, code: string, s: Snapshot<unknown>) => Promise<void>
> = {
  idle: async (page) => {
    await expect(anyDialog(page)).toBeHidden();
    await expect(page.getByTestId('instance-status')).toBeVisible();
  },
  confirming: async (page) => {
    await expect(anyDialog(page)).toBeVisible();
    await expect(anyDialog(page).getByRole('alert')).toHaveCount(0);
  },
  'confirming.cancel': async (page) => {
    await expect(dialogOf(page, 'cancel')).toContainText('stops where it is now');
  },
  'confirming.retry': async (page) => {
    await expect(dialogOf(page, 'retry')).toContainText('runs again from the step that failed');
  },
  // Not walked (see above): a failed instance waits in no task.
  'confirming.complete': async () => {},
  acting: async () => {},
  done: async (page, api, code) => {
    await expect(anyDialog(page)).toBeHidden();
    const outcome = page.getByTestId('instance-outcome');
    await expect(outcome).toBeFocused();
    // The page shows the state the service has now.
    const now = await readInstance(api, code);
    const shown = {
      cancelled: 'Cancelled',
      failed: 'Failed',
      completed: 'Completed',
      active: 'Active',
    }[now.status];
    await expect(page.getByTestId('instance-status')).toHaveText(shown!);
    if (now.status === 'cancelled') await expect(outcome).toHaveText('The instance is cancelled.');
    else await expect(outcome).toHaveText(`The instance ran again: it is ${shown} now.`);
  },
  refused: async (page, api, code) => {
    await expect(anyDialog(page).getByRole('alert')).toHaveText(
      'Not done: someone else acted on this instance first. The page shows it as it is now.',
    );
    // No second try of a refused action.
    await expect(
      anyDialog(page).getByRole('button', { name: /^(Cancel instance|Retry)$/ }),
    ).toBeDisabled();
    // The colleague's cancel, behind the dialog: the page read the instance again.
    await expect(page.getByTestId('instance-status')).toHaveText('Cancelled');
    expect((await readInstance(api, code)).status).toBe('cancelled');
  },
  failed: async () => {},
};

test('every state of the instance-actions machine has a check in the browser walk', () => {
  expectCheckForEveryState(workflowInstanceActionsMachine, stateChecks);
});

test.describe('workflow instance action paths', () => {
  // A page, bpmn-js's chunk and a few clicks: about 4 s on a quiet box (measured 2026-11-27 at
  // one worker), within the default 30 s when loaded; the failed instances are made at once.
  let instances: Instance[] = [];
  test.beforeAll(async ({ baseURL }) => {
    const api = await apiAs(baseURL!, ADMIN);
    try {
      instances = await failedInstances(api, paths.length);
    } finally {
      await api.dispose();
    }
  });

  paths.forEach((path, index) => {
    test(`path: ${describePath(path)}`, async ({ page, baseURL }) => {
      const instance = instances[index];
      expect(instance, 'a failed probe instance for this path').toBeDefined();
      const api = await apiAs(baseURL!, ADMIN);
      try {
        await signIn(page, ADMIN);
        await page.goto(
          `/u/0/management/workflow-monitor/${instance!.workflow.code}/${instance!.workflowVersion.versionNumber}/${instance!.code}`,
        );
        await expect(page.getByTestId('instance-status')).toHaveText('Failed');
        await expect(page.getByTestId('instance-failed-at')).toHaveText('Rate the lead');
        await walkModel(model, path, {
          states: stateChecks,
          args: [page, api, instance!.code],
          events: {
            'action.cancel': async () => {
              await page
                .getByTestId('instance-actions')
                .getByRole('button', { name: 'Cancel instance' })
                .click();
            },
            'action.retry': async () => {
              await page
                .getByTestId('instance-actions')
                .getByRole('button', { name: 'Retry' })
                .click();
            },
            'action.confirm': async (step) => {
              const action = actionOf(step.from);
              if (step.next()?.type === 'xstate.error.actor.act') {
                // A colleague cancels the instance meanwhile: the page's action is refused.
                const cancelled = await api.post(
                  `${PM}/workflow-instances/${instance!.code}/cancel`,
                );
                expect(cancelled.ok()).toBe(true);
              }
              await dialogOf(page, action)
                .getByRole('button', {
                  name: action === 'cancel' ? 'Cancel instance' : 'Retry',
                  exact: true,
                })
                .click();
            },
            'action.dismiss': async () => {
              await anyDialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
            },
            'xstate.done.actor.act': async () => {},
            'xstate.error.actor.act': async () => {},
          },
        });
      } finally {
        await api.dispose();
      }
    });
  });
});
