import { Dialog, DialogPanel, DialogTitle } from './dialog.tsx';
import { useActorRef, useSelector } from '@xstate/react';
import { createContext, use, useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPromise, type ActorRefFrom } from 'xstate';
import { confirmDialogMachine } from '#machines/confirm-dialog.machine.ts';
import { Alert } from './alert.tsx';
import { Button } from './button.tsx';
import { Spinner } from './spinner.tsx';

export interface ConfirmOptions {
  title: string;
  message: string;
  /** Runs while the dialog shows busy; a rejection keeps the dialog open with the error. */
  action?: () => Promise<unknown>;
  confirmLabel?: string;
  /** `danger` for destructive actions (delete, disable). */
  tone?: 'primary' | 'danger';
}

/** Resolves true when confirmed (and the action succeeded), false when cancelled or closed. */
export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

const ConfirmContext = createContext<Confirm | null>(null);

interface Pending {
  options: ConfirmOptions;
  resolve: (confirmed: boolean) => void;
}

/**
 * The global confirm service: one dialog for the whole app, driven by `confirmDialogMachine`.
 * A second `confirm()` while one is open resolves false at once (the machine does not reopen
 * over an open dialog, and stacking confirmations would confuse).
 */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const pending = useRef<Pending | null>(null);
  // The shown options live in state too: render must not read the ref.
  const [shown, setShown] = useState<ConfirmOptions | null>(null);
  const actor = useActorRef(
    confirmDialogMachine.provide({
      actors: {
        runAction: fromPromise<unknown, { action: string | null }>(async () =>
          pending.current?.options.action?.(),
        ),
      },
      actions: {
        notifyDone: () => {
          pending.current?.resolve(true);
          pending.current = null;
        },
      },
    }),
  );
  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        if (!actor.getSnapshot().matches('closed')) {
          resolve(false);
          return;
        }
        pending.current = { options, resolve };
        setShown(options);
        actor.send({
          type: 'confirm.open',
          title: options.title,
          message: options.message,
          action: 'confirm',
        });
      }),
    [actor],
  );
  const cancel = useCallback(() => {
    pending.current?.resolve(false);
    pending.current = null;
  }, []);
  return (
    <ConfirmContext value={confirm}>
      {children}
      <ConfirmDialog actor={actor} options={shown} onCancelled={cancel} />
    </ConfirmContext>
  );
}

/** `const confirm = useConfirm(); if (await confirm({ title, message, action })) ...` */
export function useConfirm(): Confirm {
  const confirm = use(ConfirmContext);
  if (confirm === null) throw new Error('useConfirm needs a ConfirmProvider');
  return confirm;
}

function ConfirmDialog({
  actor,
  options,
  onCancelled,
}: {
  actor: ActorRefFrom<typeof confirmDialogMachine>;
  options: ConfirmOptions | null;
  onCancelled: () => void;
}) {
  const state = useSelector(actor, (s) => s);
  const send = (type: 'confirm.cancel' | 'confirm.close') => {
    if (!state.can({ type })) return;
    actor.send({ type });
    onCancelled();
  };
  return (
    <ConfirmDialogView
      open={!state.matches('closed')}
      busy={state.matches('busy')}
      title={state.context.title}
      message={state.context.message}
      error={state.context.hasError ? (state.context.errorMessage ?? '') : null}
      confirmLabel={options?.confirmLabel}
      tone={options?.tone}
      canCancel={state.can({ type: 'confirm.cancel' })}
      canConfirm={state.can({ type: 'confirm.accept' })}
      onCancel={() => send('confirm.cancel')}
      onClose={() => send('confirm.close')}
      onConfirm={() => actor.send({ type: 'confirm.accept' })}
    />
  );
}

export interface ConfirmDialogViewProps {
  open: boolean;
  busy: boolean;
  title: string;
  message: string;
  /** The failure to show; '' for the generic text, null for none. */
  error: string | null;
  confirmLabel?: string | undefined;
  tone?: 'primary' | 'danger' | undefined;
  canCancel: boolean;
  canConfirm: boolean;
  onCancel: () => void;
  /** Escape or a click outside; the caller refuses it while busy. */
  onClose: () => void;
  onConfirm: () => void;
}

/** The confirm dialog as shown, for flows that keep their own statechart (a status move). */
export function ConfirmDialogView(props: ConfirmDialogViewProps) {
  const { t } = useTranslation('ui');
  const { open, busy, error } = props;
  return (
    <Dialog open={open} onClose={props.onClose} className="fixed inset-0 z-50">
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl" aria-busy={busy}>
          <DialogTitle className="text-lg font-bold text-slate-900">{props.title}</DialogTitle>
          <p className="mt-2 text-slate-700">{props.message}</p>
          {error !== null ? (
            <div className="mt-4">
              <Alert tone="danger">{error || t('confirm.generic_error')}</Alert>
            </div>
          ) : null}
          {busy ? (
            <div className="mt-4">
              <Spinner label={t('confirm.busy')} />
            </div>
          ) : null}
          <div className="mt-6 flex justify-end gap-3">
            {/* First focus on Cancel: an Enter typed on reflex must not delete or move anything. */}
            <Button
              data-autofocus
              variant="secondary"
              disabled={!props.canCancel}
              onClick={props.onCancel}
            >
              {t('confirm.cancel')}
            </Button>
            <Button
              variant={props.tone === 'danger' ? 'danger' : 'primary'}
              disabled={!props.canConfirm}
              onClick={props.onConfirm}
            >
              {props.confirmLabel ?? t('confirm.confirm')}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
