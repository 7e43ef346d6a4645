import NavigatedViewer from 'bpmn-js/lib/NavigatedViewer';
import 'bpmn-js/dist/assets/diagram-js.css';
import 'bpmn-js/dist/assets/bpmn-js.css';
import './instance-diagram.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '#client/ui/spinner.tsx';
import { withLayout } from '#client/entities/workflow/bpmn-layout.ts';
import type { ExecutedPath } from './instance-path.ts';

/*
 * The instance's version drawn by bpmn-js (this module belongs to the instance page's lazy route
 * only: bench/bundle-size.ts keeps bpmn-js out of sign-in and the shell), with the path the
 * instance took: markers on the elements it entered and the flows it took, a badge on each token
 * it holds now, the failed element in red with the error beside it (as Camunda Operate shows it).
 */

/** The legend: the markers' colours (instance-diagram.css), by their words. */
const LEGEND = [
  ['legend_executed', 'border-blue-700 bg-blue-100'],
  ['legend_current', 'border-amber-600 bg-amber-100'],
  ['legend_failed', 'border-red-700 bg-red-100'],
] as const;

/** Room around the drawing, in the diagram's units, for the badges above the elements. */
const FIT_MARGIN = 40;

interface Props {
  definition: string;
  path: ExecutedPath;
  /** The failed task's error message, shown on the diagram by the element. */
  errorMessage: string | null;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- bpmn-js services are untyped here */
export function InstanceDiagram({ definition, path, errorMessage }: Props) {
  const { t } = useTranslation('workflow_monitor');
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'drawing' | 'drawn' | 'failed'>('drawing');
  // The badges' words, read when drawing (the effect need not run again for a language change).
  const words = useRef({ current: '', waiting: '', failed: '' });
  words.current = {
    current: t('instance.diagram.current'),
    waiting: t('instance.diagram.waiting'),
    failed: t('instance.diagram.failed_here'),
  };
  const pathKey = JSON.stringify(path);

  useEffect(() => {
    if (!container.current) return;
    const viewer = new NavigatedViewer({ container: container.current });
    let live = true;
    const draw = async () => {
      // A version without a drawing (the seeded ones) gets the editor's plain layout.
      await viewer.importXML(withLayout(definition));
      if (!live) return;
      const canvas = viewer.get<any>('canvas');
      const overlays = viewer.get<any>('overlays');
      const registry = viewer.get<any>('elementRegistry');
      const shown: ExecutedPath = JSON.parse(pathKey);
      const mark = (id: string, marker: string) => {
        if (registry.get(id)) canvas.addMarker(id, marker);
      };
      for (const id of shown.executed) mark(id, 'wfm-executed');
      for (const id of shown.flows) mark(id, 'wfm-executed');
      const badge = (id: string, text: string, className: string, title?: string) => {
        if (!registry.get(id)) return;
        const html = document.createElement('div');
        html.className = className;
        html.textContent = text;
        if (title) html.title = title;
        html.dataset.element = id;
        overlays.add(id, 'wfm', { position: { top: -14, right: 24 }, html });
      };
      for (const id of shown.current) {
        mark(id, 'wfm-current');
        const waiting = shown.waitingTasks.includes(id);
        badge(
          id,
          waiting ? words.current.waiting : words.current.current,
          'wfm-badge wfm-badge-current',
        );
      }
      if (shown.failed) {
        mark(shown.failed, 'wfm-failed');
        badge(shown.failed, words.current.failed, 'wfm-badge wfm-badge-failed', errorMessage ?? '');
        if (errorMessage && registry.get(shown.failed)) {
          const note = document.createElement('div');
          note.className = 'wfm-error';
          note.textContent = errorMessage;
          overlays.add(shown.failed, 'wfm', { position: { bottom: -8, left: -20 }, html: note });
        }
      }
      fit();
      // The page's columns settle after the first draw (the details load beside it): fit again
      // whenever the box changes, or the diagram's right end stayed cut off.
      resizes = new ResizeObserver(() => live && fit());
      resizes.observe(container.current!);
      setState('drawn');
    };
    /** The whole diagram in view with a margin, centred (fit-viewport alone ran edge to edge). */
    const fit = () => {
      const canvas = viewer.get<any>('canvas');
      canvas.resized();
      const inner = canvas.viewbox().inner as {
        x: number;
        y: number;
        width: number;
        height: number;
      };
      if (!inner.width || !inner.height) return;
      canvas.viewbox({
        x: inner.x - FIT_MARGIN,
        y: inner.y - FIT_MARGIN,
        width: inner.width + 2 * FIT_MARGIN,
        height: inner.height + 2 * FIT_MARGIN,
      });
    };
    let resizes: ResizeObserver | undefined;
    draw().catch((error: unknown) => {
      if (!live) return;
      console.error('the diagram could not be drawn', error);
      setState('failed');
    });
    return () => {
      live = false;
      resizes?.disconnect();
      viewer.destroy();
    };
  }, [definition, pathKey, errorMessage]);

  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-sm text-slate-700">{t('instance.diagram.label')}</figcaption>
      {state === 'failed' ? (
        <p role="alert" className="text-red-800">
          {t('instance.diagram.failed')}
        </p>
      ) : null}
      {state === 'drawing' ? <Spinner label={t('instance.diagram.loading')} /> : null}
      <div
        ref={container}
        data-testid="instance-diagram"
        data-state={state}
        className="h-96 w-full rounded-md border border-slate-300 bg-white"
      />
      <ul
        aria-label={t('instance.diagram.legend')}
        className="flex flex-wrap gap-4 text-sm text-slate-800"
      >
        {LEGEND.map(([key, swatch]) => (
          <li key={key} className="flex items-center gap-2">
            <span
              aria-hidden="true"
              className={`inline-block size-3 rounded-sm border-2 ${swatch}`}
            />
            {t(`instance.diagram.${key}`)}
          </li>
        ))}
      </ul>
    </figure>
  );
}
