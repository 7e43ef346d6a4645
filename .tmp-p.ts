import { createTestModel } from 'xstate/graph';
import { pathEvents, pathsInput, sessionMachine } from '#machines/session.machine.ts';
const model = createTestModel(sessionMachine, { events: pathEvents as never, input: pathsInput as never });
const paths = model.getShortestPaths();
console.log(paths.length);
for (const p of paths) console.log(p.description.slice(0,300));
