import { describe, expect, it } from 'vitest';
import { EXAMPLE_WORKFLOW } from './bpmn-example.ts';
import { versionDetails } from './version-details.ts';

describe('versionDetails', () => {
  it("reads each task's implementation, each flow's condition and each timer's duration", async () => {
    expect(await versionDetails(EXAMPLE_WORKFLOW)).toEqual({
      route: { implementation: 'dmn:claim-routing' },
      f3: { condition: 'route = "fast-track"' },
      approve: { implementation: 'claim.setStatus?status=approved' },
      wait: { timer: 'P1D' },
      remind: {
        implementation:
          'notification.sendEmail?to=claims%40demo.test&subject=Claim%20%7BentityCode%7D%20waits',
      },
    });
  });

  it('has no details for a file it cannot read', async () => {
    expect(await versionDetails('not xml')).toEqual({});
  });
});
