import { useActorRef } from '@xstate/react';
import { useMemo } from 'react';
import i18next from 'i18next';
import { fromCallback, fromPromise } from 'xstate';
import type { EventObject } from 'xstate';
import {
  CHAT_WIDGET_SETTING_KEY,
  chatWidgetMachine,
  parseChatWidgetSetting,
  type MountWidgetInput,
  type ScriptCheck,
} from '#machines/chat-widget.machine.ts';
import { getTenantSettings, settingValue } from '#client/api/settings-client.ts';

/** The element the widget draws into; it and the script go when the dashboard is left. */
export const CHAT_WIDGET_ROOT_ID = 'bo-chat-widget';

/** The chat widget machine with the browser's I/O for one account. */
function chatWidgetLogic(accountIndex: number) {
  return chatWidgetMachine.provide({
    actors: {
      loadSetting: fromPromise(async ({ signal }) => {
        const { values } = await getTenantSettings(accountIndex, [CHAT_WIDGET_SETTING_KEY], signal);
        return parseChatWidgetSetting(settingValue(values, CHAT_WIDGET_SETTING_KEY));
      }),
      // Spec: fetched from the own origin with cors; the answer decides whether it is used.
      checkScript: fromPromise<ScriptCheck, { url: string }>(async ({ input, signal }) => {
        const response = await fetch(input.url, {
          mode: 'cors',
          credentials: 'same-origin',
          signal,
        });
        await response.body?.cancel();
        return {
          ok: response.ok,
          contentType: response.headers.get('content-type'),
          sameOrigin:
            new URL(response.url || input.url, window.location.href).origin ===
            window.location.origin,
        };
      }),
      // A <script src> from this origin (the CSP allows nothing else; no inline code).
      mountWidget: fromCallback<EventObject, MountWidgetInput>(({ input, sendBack }) => {
        const root = document.createElement('div');
        root.id = CHAT_WIDGET_ROOT_ID;
        const script = document.createElement('script');
        script.src = input.url;
        script.async = true;
        script.dataset.target = CHAT_WIDGET_ROOT_ID;
        script.dataset.webhookUrl = input.setting.webhookUrl;
        script.dataset.version = input.setting.version;
        script.dataset.language = i18next.language;
        script.addEventListener('load', () => sendBack({ type: 'widget.loaded' }));
        script.addEventListener('error', () => sendBack({ type: 'widget.failed' }));
        document.body.append(root, script);
        return () => {
          script.remove();
          root.remove();
        };
      }),
    },
  });
}

/**
 * The tenant's chat widget while the dashboard is shown (decision: the dashboard is its screen).
 * Renders nothing itself; the machine inserts and removes the widget, and any failure is
 * silently no widget (spec, section 8).
 */
export function ChatWidget({ accountIndex }: { accountIndex: number }) {
  const logic = useMemo(() => chatWidgetLogic(accountIndex), [accountIndex]);
  useActorRef(logic);
  return null;
}
