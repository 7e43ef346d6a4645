import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type BaseViewer from 'bpmn-js/lib/BaseViewer';
import Modeler from 'bpmn-js/lib/Modeler';
import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
// bpmn-js and its styles load with these lazy routes only (the sign-in page and the shell carry
// none of it: bench/bundle-size.ts checks).
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import 'bpmn-js/dist/assets/bpmn-font/css/bpmn.css';
import './bpmn-editor.css';
import { bpmnTranslateModule, type BpmnTexts } from './bpmn-translate.ts';

/** A bpmn-js diagram: the Modeler (editing) or the NavigatedViewer (looking, zoom and pan). */
export type BpmnInstance = BaseViewer;

/**
 * The canvas of a workflow: makes the bpmn-js instance in its box and hands it to `onReady`
 * (null when it goes); the caller imports the XML and listens to its events. Remount it (a
 * `key`) to switch between editing and looking.
 */
export function BpmnCanvas({
  readOnly,
  label,
  onReady,
}: {
  readOnly: boolean;
  /** The accessible name of the diagram's region. */
  label: string;
  onReady: (instance: BpmnInstance | null) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const ready = useRef(onReady);
  // bpmn-js's texts in the user's language. The palette is drawn once, so a language chosen
  // while the diagram is open reaches it on the next visit (remounting would drop unsaved work);
  // the context pad and menus, drawn on each opening, follow at once.
  const { t, i18n } = useTranslation('bpmn_js');
  const texts = useRef<BpmnTexts>(() => undefined);
  useEffect(() => {
    ready.current = onReady;
    // Keys are checked first: i18next answers a missing key with the key itself.
    texts.current = (key) =>
      i18n.exists(key, { ns: 'bpmn_js' })
        ? (t as unknown as (key: string) => string)(key)
        : undefined;
  });
  useEffect(() => {
    const container = box.current!;
    const additionalModules = [bpmnTranslateModule(() => texts.current)];
    const instance = readOnly
      ? new NavigatedViewer({ container, additionalModules })
      : new Modeler({ container, additionalModules });
    ready.current(instance);
    return () => {
      ready.current(null);
      instance.destroy();
    };
  }, [readOnly]);
  return <div ref={box} role="region" aria-label={label} className="wf-canvas" />;
}
