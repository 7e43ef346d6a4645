import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { EventObject } from 'xstate';

/** The tenant setting key of the chat widget (seeded as `{enabled, webhookUrl, version}`). */
export const CHAT_WIDGET_SETTING_KEY = 'chatWidget';

/** How long the script check and the script itself may take before the widget is given up. */
export const CHAT_WIDGET_TIMEOUT_MS = 10_000;

/** Spec, section 3: enabled, webhookUrl, version; default disabled with both empty. */
export interface ChatWidgetSetting {
  enabled: boolean;
  webhookUrl: string;
  version: string;
}

export const DEFAULT_CHAT_WIDGET_SETTING: ChatWidgetSetting = {
  enabled: false,
  webhookUrl: '',
  version: '',
};

/**
 * A version is one path segment of letters and digits joined by single `.`, `_` or `-`: it can
 * never be `..` or carry a slash, so the script URL stays under `/chat-widget/`.
 */
const VERSION = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;

export function isWidgetVersion(value: string): boolean {
  return value.length <= 40 && VERSION.test(value);
}

/** A stored setting value as the machine reads it; anything malformed is "no widget". */
export function parseChatWidgetSetting(value: unknown): ChatWidgetSetting {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return DEFAULT_CHAT_WIDGET_SETTING;
  }
  const { enabled, webhookUrl, version } = value as Record<string, unknown>;
  return {
    enabled: enabled === true,
    webhookUrl: typeof webhookUrl === 'string' ? webhookUrl.trim() : '',
    version: typeof version === 'string' ? version.trim() : '',
  };
}

/** Spec, section 4: only if enabled, with a non-empty webhookUrl and version. */
export function isUsableSetting(setting: ChatWidgetSetting | null): setting is ChatWidgetSetting {
  return (
    setting !== null &&
    setting.enabled &&
    setting.webhookUrl !== '' &&
    setting.version !== '' &&
    isWidgetVersion(setting.version)
  );
}

/** Spec, section 7: own origin, a path containing the version and widget.js. */
export function widgetScriptUrl(version: string): string {
  return `/chat-widget/${encodeURIComponent(version)}/widget.js`;
}

/** Spec, section 5: the script is used only if its content type is javascript or ecmascript. */
export function isJavaScriptContentType(contentType: string | null): boolean {
  const media = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return /^(?:text|application)\/(?:x-)?(?:javascript|ecmascript)$/.test(media);
}

/** What the script check reports: the fetch's status, content type and final origin. */
export interface ScriptCheck {
  ok: boolean;
  contentType: string | null;
  sameOrigin: boolean;
}

export function isUsableScript(check: ScriptCheck): boolean {
  return check.ok && check.sameOrigin && isJavaScriptContentType(check.contentType);
}

export interface ChatWidgetContext {
  setting: ChatWidgetSetting | null;
}

/** What `mountWidget` sends back. */
export type WidgetCallbackEvent = { type: 'widget.loaded' } | { type: 'widget.failed' };

export interface MountWidgetInput {
  url: string;
  setting: ChatWidgetSetting;
}

/**
 * The chat-assistant widget of a screen (spec, sections 4, 5, 7, 8).
 *
 * `loadingSetting` reads the tenant's setting; unless it is enabled with a webhook and a valid
 * version the machine ends in `off`. `checkingScript` fetches the script from the own origin and
 * goes on only if the answer is ok, same-origin and JavaScript. `mounted` owns the one widget:
 * `mountWidget` is invoked there, so the script is inserted exactly once per run and leaving
 * `mounted` (a failure) or stopping the actor (the user leaves the screen) runs its cleanup,
 * which removes the script and everything the widget drew. Every failure and each
 * `loadTimeout` end in `failed`: silently no widget.
 *
 * Provide: actors `loadSetting` (`fromPromise`, output the setting or null), `checkScript`
 * (`fromPromise`, input `{ url }`, output {@link ScriptCheck}) and `mountWidget`
 * (`fromCallback`, input {@link MountWidgetInput}; sends `widget.loaded` or `widget.failed`;
 * its cleanup removes the widget).
 */
export const chatWidgetMachine = setup({
  types: {
    context: {} as ChatWidgetContext,
    events: {} as WidgetCallbackEvent,
  },
  actors: {
    loadSetting: fromPromise<ChatWidgetSetting | null>(() => {
      throw new Error('chatWidgetMachine: provide the loadSetting actor');
    }),
    checkScript: fromPromise<ScriptCheck, { url: string }>(() => {
      throw new Error('chatWidgetMachine: provide the checkScript actor');
    }),
    mountWidget: fromCallback<EventObject, MountWidgetInput>(() => {
      throw new Error('chatWidgetMachine: provide the mountWidget actor');
    }),
  },
  guards: {
    isUsableSetting: (_, params: { setting: ChatWidgetSetting | null }) =>
      isUsableSetting(params.setting),
    isUsableScript: (_, params: { check: ScriptCheck }) => isUsableScript(params.check),
  },
  delays: {
    loadTimeout: CHAT_WIDGET_TIMEOUT_MS,
  },
}).createMachine({
  id: 'chatWidget',
  context: { setting: null },
  initial: 'loadingSetting',
  states: {
    loadingSetting: {
      invoke: {
        id: 'loadSetting',
        src: 'loadSetting',
        onDone: [
          {
            guard: { type: 'isUsableSetting', params: ({ event }) => ({ setting: event.output }) },
            target: 'checkingScript',
            actions: assign({ setting: ({ event }) => event.output }),
          },
          { target: 'off' },
        ],
        onError: 'off',
      },
    },
    checkingScript: {
      invoke: {
        id: 'checkScript',
        src: 'checkScript',
        input: ({ context }) => ({ url: widgetScriptUrl(context.setting?.version ?? '') }),
        onDone: [
          {
            guard: { type: 'isUsableScript', params: ({ event }) => ({ check: event.output }) },
            target: 'mounted',
          },
          { target: 'failed' },
        ],
        onError: 'failed',
      },
      after: { loadTimeout: 'failed' },
    },
    mounted: {
      invoke: {
        id: 'mountWidget',
        src: 'mountWidget',
        input: ({ context }) => ({
          url: widgetScriptUrl(context.setting?.version ?? ''),
          setting: context.setting ?? DEFAULT_CHAT_WIDGET_SETTING,
        }),
        onError: 'failed',
      },
      initial: 'loading',
      on: { 'widget.failed': 'failed' },
      states: {
        loading: {
          on: { 'widget.loaded': 'shown' },
          after: { loadTimeout: '#chatWidget.failed' },
        },
        shown: {},
      },
    },
    off: { type: 'final' },
    failed: { type: 'final' },
  },
});

const usable: ChatWidgetSetting = {
  enabled: true,
  webhookUrl: '/chat-widget/webhook',
  version: '1.0.0',
};

/** Sample events for `npm run paths -- chat-widget` and the model test. */
export const pathEvents = {
  'xstate.done.actor.loadSetting': [
    { type: 'xstate.done.actor.loadSetting', output: usable },
    { type: 'xstate.done.actor.loadSetting', output: { ...usable, enabled: false } },
  ],
  'xstate.error.actor.loadSetting': [
    { type: 'xstate.error.actor.loadSetting', error: { message: 'settings unavailable' } },
  ],
  'xstate.done.actor.checkScript': [
    {
      type: 'xstate.done.actor.checkScript',
      output: { ok: true, contentType: 'text/javascript', sameOrigin: true },
    },
    {
      type: 'xstate.done.actor.checkScript',
      output: { ok: true, contentType: 'text/html', sameOrigin: true },
    },
  ],
  'xstate.error.actor.checkScript': [
    { type: 'xstate.error.actor.checkScript', error: { message: 'network' } },
  ],
  'xstate.error.actor.mountWidget': [
    { type: 'xstate.error.actor.mountWidget', error: { message: 'no document' } },
  ],
} as const;
