import { describe, expect, it } from 'vitest';
import { taskImplementation } from './bpmn-model.ts';

describe("a service task's implementation from the panel's rows", () => {
  it('leaves out a parameter the type knows and left blank', () => {
    // The panel's rows after "to" and "subject" are typed: "text" is offered, empty.
    expect(
      taskImplementation('notification.sendEmail', [
        { name: 'to', value: 'care@demo.test' },
        { name: 'subject', value: 'Claim {entityCode}' },
        { name: 'text', value: '' },
      ]),
    ).toBe('notification.sendEmail?to=care%40demo.test&subject=Claim+%7BentityCode%7D');
    // Blank is blank with spaces too; a required one left blank is left out as well (the
    // editor's check names it as missing).
    expect(
      taskImplementation('claim.setStatus', [
        { name: 'status', value: '' },
        { name: 'claimCode', value: '  ' },
      ]),
    ).toBe('claim.setStatus');
  });

  it('keeps a filled optional parameter and a row the user added while it is blank', () => {
    expect(
      taskImplementation('notification.sendEmail', [
        { name: 'to', value: 'a@demo.test' },
        { name: 'text', value: 'Hello' },
        { name: 'param4', value: '' },
      ]),
    ).toBe('notification.sendEmail?to=a%40demo.test&text=Hello&param4=');
    // A type the registry does not know here: nothing is known, nothing dropped.
    expect(taskImplementation('http.call', [{ name: 'path', value: '' }])).toBe('http.call?path=');
  });
});
