import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type { AnyEventObject, EventObject } from 'xstate';
import {
  CHAT_WIDGET_TIMEOUT_MS,
  chatWidgetMachine,
  isJavaScriptContentType,
  isUsableSetting,
  isWidgetVersion,
  parseChatWidgetSetting,
  pathEvents,
  widgetScriptUrl,
  type ChatWidgetSetting,
  type MountWidgetInput,
  type ScriptCheck,
} from './chat-widget.machine.ts';
import { controlledCallback, controlledPromise, flushPromises } from './testing/actors.ts';
import { expectFullCoverage, expectHandlers, checkInEveryState } from './testing/assertions.ts';
import {
  createMachineTestModel,
  describePath,
  eventTypes,
  transitionPaths,
} from './testing/model.ts';

const usable: ChatWidgetSetting = { enabled: true, webhookUrl: '/hook', version: '1.2.0' };
const javascript: ScriptCheck = {
  ok: true,
  contentType: 'text/javascript; charset=utf-8',
  sameOrigin: true,
};

function start() {
  const loadSetting = controlledPromise<ChatWidgetSetting | null>();
  const checkScript = controlledPromise<ScriptCheck, { url: string }>();
  const mount = controlledCallback<MountWidgetInput>();
  const clock = new SimulatedClock();
  const actor = createActor(
    chatWidgetMachine.provide({
      actors: {
        loadSetting: loadSetting.logic,
        checkScript: checkScript.logic,
        mountWidget: mount.logic,
      },
    }),
    { clock },
  ).start();
  return { actor, loadSetting, checkScript, mount, clock };
}

async function toMounted() {
  const run = start();
  run.loadSetting.last().resolve(usable);
  await flushPromises();
  run.checkScript.last().resolve(javascript);
  await flushPromises();
  return run;
}

describe('chat widget rules', () => {
  it('reads a stored setting leniently; anything malformed means disabled', () => {
    expect(parseChatWidgetSetting({ enabled: true, webhookUrl: ' /h ', version: '1' })).toEqual({
      enabled: true,
      webhookUrl: '/h',
      version: '1',
    });
    for (const bad of [null, 'on', [], { enabled: 'yes', webhookUrl: 3 }]) {
      expect(isUsableSetting(parseChatWidgetSetting(bad))).toBe(false);
    }
  });

  it('needs enabled, a webhook and a version (spec, section 4)', () => {
    expect(isUsableSetting(usable)).toBe(true);
    expect(isUsableSetting({ ...usable, enabled: false })).toBe(false);
    expect(isUsableSetting({ ...usable, webhookUrl: '' })).toBe(false);
    expect(isUsableSetting({ ...usable, version: '' })).toBe(false);
    expect(isUsableSetting(null)).toBe(false);
  });

  it('accepts only versions that stay one path segment', () => {
    for (const ok of ['1', '1.2.3', 'v2', '2024-01_beta']) expect(isWidgetVersion(ok)).toBe(true);
    for (const bad of ['..', '1..2', '../x', '1/2', '.1', 'a b', '%2e', 'x'.repeat(41)]) {
      expect(isWidgetVersion(bad)).toBe(false);
    }
  });

  it('builds the script path from the version under the own origin', () => {
    expect(widgetScriptUrl('1.2.0')).toBe('/chat-widget/1.2.0/widget.js');
  });

  it('uses the script only with a javascript or ecmascript content type', () => {
    for (const ok of [
      'text/javascript',
      'application/javascript; charset=utf-8',
      'application/x-javascript',
      'text/ecmascript',
      'APPLICATION/ECMASCRIPT',
    ]) {
      expect(isJavaScriptContentType(ok)).toBe(true);
    }
    for (const bad of [
      null,
      '',
      'text/html',
      'application/json',
      'text/javascript-ish',
      'text/plain',
    ]) {
      expect(isJavaScriptContentType(bad)).toBe(false);
    }
  });
});

describe('chatWidgetMachine', () => {
  it('loads the setting, checks the script, mounts it once and shows it', async () => {
    const { actor, checkScript, mount } = await toMounted();
    expect(checkScript.last().input).toEqual({ url: '/chat-widget/1.2.0/widget.js' });
    expect(actor.getSnapshot().value).toEqual({ mounted: 'loading' });
    expect(mount.instances).toHaveLength(1);
    expect(mount.last().input).toEqual({ url: '/chat-widget/1.2.0/widget.js', setting: usable });
    mount.last().sendBack({ type: 'widget.loaded' });
    expect(actor.getSnapshot().value).toEqual({ mounted: 'shown' });
    // A second load report changes nothing and inserts nothing.
    mount.last().sendBack({ type: 'widget.loaded' });
    expect(mount.instances).toHaveLength(1);
    expect(mount.liveCount()).toBe(1);
  });

  it('leaving the screen (stopping the actor) removes the widget', async () => {
    const { actor, mount } = await toMounted();
    mount.last().sendBack({ type: 'widget.loaded' });
    actor.stop();
    expect(mount.liveCount()).toBe(0);
  });

  it.each([
    ['disabled', { ...usable, enabled: false }],
    ['without webhook', { ...usable, webhookUrl: '' }],
    ['without version', { ...usable, version: '' }],
    ['with a version that leaves its folder', { ...usable, version: '..' }],
    ['missing', null],
  ])('a setting %s means no widget and no fetch', async (_, setting) => {
    const { actor, loadSetting, checkScript, mount } = start();
    loadSetting.last().resolve(setting);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('off');
    expect(actor.getSnapshot().status).toBe('done');
    expect(checkScript.calls).toHaveLength(0);
    expect(mount.instances).toHaveLength(0);
  });

  it('a failing settings call is silently no widget', async () => {
    const { actor, loadSetting, checkScript } = start();
    loadSetting.last().reject(new Error('500'));
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('off');
    expect(checkScript.calls).toHaveLength(0);
  });

  it.each([
    ['an HTML answer', { ok: true, contentType: 'text/html', sameOrigin: true }],
    ['a 404', { ok: false, contentType: 'text/javascript', sameOrigin: true }],
    ['a redirect elsewhere', { ok: true, contentType: 'text/javascript', sameOrigin: false }],
  ])('%s from the script check never mounts', async (_, check) => {
    const { actor, loadSetting, checkScript, mount } = start();
    loadSetting.last().resolve(usable);
    await flushPromises();
    checkScript.last().resolve(check);
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(mount.instances).toHaveLength(0);
  });

  it('a failing fetch never mounts', async () => {
    const { actor, loadSetting, checkScript, mount } = start();
    loadSetting.last().resolve(usable);
    await flushPromises();
    checkScript.last().reject(new TypeError('Failed to fetch'));
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(mount.instances).toHaveLength(0);
  });

  it('gives up a script check that hangs for the timeout, and ignores its late answer', async () => {
    const { actor, loadSetting, checkScript, mount, clock } = start();
    loadSetting.last().resolve(usable);
    await flushPromises();
    clock.increment(CHAT_WIDGET_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().value).toBe('checkingScript');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('failed');
    checkScript.last().resolve(javascript);
    await flushPromises();
    expect(mount.instances).toHaveLength(0);
  });

  it('a script that never reports loading is removed after the timeout', async () => {
    const { actor, mount, clock } = await toMounted();
    clock.increment(CHAT_WIDGET_TIMEOUT_MS);
    expect(actor.getSnapshot().value).toBe('failed');
    expect(mount.liveCount()).toBe(0);
  });

  it('a loaded widget has no timeout', async () => {
    const { actor, mount, clock } = await toMounted();
    mount.last().sendBack({ type: 'widget.loaded' });
    clock.increment(10 * CHAT_WIDGET_TIMEOUT_MS);
    expect(actor.getSnapshot().value).toEqual({ mounted: 'shown' });
    expect(mount.liveCount()).toBe(1);
  });

  it('a script error removes what was inserted', async () => {
    const { actor, mount } = await toMounted();
    mount.last().sendBack({ type: 'widget.failed' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(mount.liveCount()).toBe(0);
  });

  it('a mount actor that throws is silently no widget', async () => {
    const actor = createActor(
      chatWidgetMachine.provide({
        actors: {
          loadSetting: fromPromise<ChatWidgetSetting | null>(() => Promise.resolve(usable)),
          checkScript: fromPromise<ScriptCheck, { url: string }>(() => Promise.resolve(javascript)),
          mountWidget: fromCallback<EventObject, MountWidgetInput>(() => {
            throw new Error('no document');
          }),
        },
      }),
    ).start();
    await flushPromises();
    await flushPromises();
    expect(actor.getSnapshot().value).toBe('failed');
  });
});

describe('chatWidgetMachine model', () => {
  const model = createMachineTestModel(chatWidgetMachine, { events: pathEvents });
  const paths = [...model.getShortestPaths(), ...transitionPaths(model)];

  it('reaches every state and takes every event', () => {
    expectFullCoverage(chatWidgetMachine, paths);
  });

  function driver() {
    const run = start();
    const settle =
      (control: { last(): { resolve(v: unknown): void; reject(e: unknown): void } }) =>
      async ({ event }: { event: AnyEventObject }) => {
        if ('output' in event) control.last().resolve(event.output);
        else control.last().reject(event.error);
        await flushPromises();
      };
    const fromWidget = ({ event }: { event: AnyEventObject }) => run.mount.last().sendBack(event);
    const events = {
      'xstate.done.actor.loadSetting': settle(run.loadSetting),
      'xstate.error.actor.loadSetting': settle(run.loadSetting),
      'xstate.done.actor.checkScript': settle(run.checkScript),
      'xstate.error.actor.checkScript': settle(run.checkScript),
      'widget.loaded': fromWidget,
      'widget.failed': fromWidget,
      // A callback actor fails only while starting (covered above with a throwing fake); here
      // the error event xstate would deliver is sent as is.
      'xstate.error.actor.mountWidget': ({ event }: { event: AnyEventObject }) => {
        run.actor.send(event as never);
      },
      'xstate.after.loadTimeout.chatWidget.checkingScript': () => {
        run.clock.increment(CHAT_WIDGET_TIMEOUT_MS);
      },
      'xstate.after.loadTimeout.chatWidget.mounted.loading': () => {
        run.clock.increment(CHAT_WIDGET_TIMEOUT_MS);
      },
    };
    return { ...run, events };
  }

  it('has an executor for every event', () => {
    expectHandlers(eventTypes(chatWidgetMachine), driver().events);
  });

  it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    const { actor, events, mount } = driver();
    // Whatever the path, after every step: the script is inserted at most once, and is in the
    // page exactly while the widget is mounted.
    await model.testPath(path, {
      states: checkInEveryState(chatWidgetMachine, () => {
        expect(mount.instances.length).toBeLessThanOrEqual(1);
        expect(mount.liveCount()).toBe(actor.getSnapshot().matches('mounted') ? 1 : 0);
      }),
      events,
    });
  });
});
