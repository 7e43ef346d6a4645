import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '#server/logger.ts';
import { UpstreamGate } from '#server/upstream/gate.ts';

/** Just enough of a response for the gate: it listens for 'close' and may answer 503. */
class FakeResponse extends EventEmitter {
  status = 0;
  headers: Record<string, unknown> = {};
  headersSent = false;
  setHeader(name: string, value: unknown) {
    this.headers[name] = value;
  }
  writeHead(status: number, headers: Record<string, unknown>) {
    this.status = status;
    this.headers = { ...this.headers, ...headers };
    this.headersSent = true;
  }
  end() {
    this.emit('close');
  }
  destroy() {}
}

function setup(limits = { concurrency: 2, queue: 2, maxWaitMs: 1_000 }) {
  const gate = new UpstreamGate('test', limits, createLogger('silent'));
  const passed: FakeResponse[] = [];
  const pass = (_req: IncomingMessage, res: ServerResponse) => void passed.push(res as never);
  const call = () => {
    const res = new FakeResponse();
    gate.enter({ complete: true } as IncomingMessage, res as never, () => {}, pass);
    return res;
  };
  return { gate, passed, call };
}

describe('UpstreamGate', () => {
  it('lets calls through up to the limit, queues the next ones in order, refuses the rest', () => {
    const { gate, passed, call } = setup();
    const [a, b, c, d, e] = [call(), call(), call(), call(), call()];
    expect(passed).toEqual([a, b]);
    expect([gate.inFlight, gate.waiting]).toEqual([2, 2]);
    expect(e.status).toBe(503);
    expect(e.headers['retry-after']).toBeDefined();

    a.emit('close');
    expect(passed).toEqual([a, b, c]);
    b.emit('close');
    expect(passed).toEqual([a, b, c, d]);
    c.emit('close');
    d.emit('close');
    expect([gate.inFlight, gate.waiting]).toEqual([0, 0]);
  });

  it('gives the place of a caller who left while waiting to the next one', () => {
    const { gate, passed, call } = setup({ concurrency: 1, queue: 2, maxWaitMs: 1_000 });
    const [a, b, c] = [call(), call(), call()];
    b.emit('close');
    expect(gate.waiting).toBe(1);
    a.emit('close');
    expect(passed).toEqual([a, c]);
    expect(gate.inFlight).toBe(1);
  });

  it('answers 503 to a call that waited too long and never passes it later', () => {
    vi.useFakeTimers();
    try {
      const { gate, passed, call } = setup({ concurrency: 1, queue: 1, maxWaitMs: 500 });
      const [a, b] = [call(), call()];
      vi.advanceTimersByTime(501);
      expect(b.status).toBe(503);
      expect(gate.waiting).toBe(0);
      a.emit('close');
      expect(passed).toEqual([a]);
      expect(gate.inFlight).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
