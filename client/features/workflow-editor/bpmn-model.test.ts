import { describe, expect, it } from 'vitest';
import type { TaskParam } from './bpmn-conventions.ts';
import { taskImplementation } from './bpmn-model.ts';

const rows = (pairs: Record<string, string>): TaskParam[] =>
  Object.entries(pairs).map(([name, value]) => ({ name, value }));

describe("a service task's implementation from the panel's rows", () => {
  it.each<{ why: string; type: string; params: Record<string, string>; saved: string }>([
    {
      // The panel's rows after "to" and "subject" are typed: "text" is offered, empty.
      why: 'leaves out a known optional parameter left blank',
      type: 'notification.sendEmail',
      params: { to: 'care@demo.test', subject: 'Claim {entityCode}', text: '' },
      saved: 'notification.sendEmail?to=care%40demo.test&subject=Claim+%7BentityCode%7D',
    },
    {
      // A required one left blank is left out as well: the editor's check names it as missing.
      why: 'takes spaces for blank, and drops a blank required one too',
      type: 'claim.setStatus',
      params: { status: '', claimCode: '  ' },
      saved: 'claim.setStatus',
    },
    {
      why: 'keeps a filled optional parameter and a row the user added while it is blank',
      type: 'notification.sendEmail',
      params: { to: 'a@demo.test', text: 'Hello', param4: '' },
      saved: 'notification.sendEmail?to=a%40demo.test&text=Hello&param4=',
    },
    {
      why: 'drops nothing of a type whose parameters the editor does not know',
      type: 'http.call',
      params: { path: '' },
      saved: 'http.call?path=',
    },
  ])('$why', ({ type, params, saved }) => {
    expect(taskImplementation(type, rows(params))).toBe(saved);
  });
});
