import { describe, expect, it } from 'vitest';
import { EXAMPLE_WORKFLOW } from '#client/features/workflow-editor/bpmn-example.ts';
import { parseBpmn } from './bpmn.ts';
import { parseDmn } from './dmn.ts';
import { CLAIM_ROUTING_DMN } from './seed-workflows.ts';

// The example of /management/bpmn-example is what a user opens in the editor and saves: the
// process manager must take it as it is, or the page teaches a workflow the service refuses.
describe("the BPMN example's workflow", () => {
  it('passes the deployment checks with every task and flow read', async () => {
    const parsed = await parseBpmn(EXAMPLE_WORKFLOW);
    expect(parsed.tasks.map((t) => `${t.key}:${t.type}`)).toEqual([
      'start:startEvent',
      'route:businessRuleTask',
      'fastTrack:exclusiveGateway',
      'approve:serviceTask',
      'approved:endEvent',
      'wait:intermediateCatchEvent',
      'remind:serviceTask',
      'reminded:endEvent',
    ]);
    expect(parsed.sequences).toHaveLength(7);
    const ids = new Set(parsed.tasks.map((t) => t.key));
    for (const s of parsed.sequences) {
      expect(ids.has(s.source) && ids.has(s.target), s.key).toBe(true);
    }
  });

  it("names the seeded decision table, whose output the gateway's condition reads", async () => {
    expect(EXAMPLE_WORKFLOW).toContain('implementation="dmn:claim-routing"');
    expect(EXAMPLE_WORKFLOW).toContain('route = "fast-track"');
    const table = await parseDmn(CLAIM_ROUTING_DMN);
    expect(table.outputs.map((o) => o.name)).toContain('route');
  });
});
