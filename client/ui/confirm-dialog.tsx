import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
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
  const { t } = useTranslation('ui');
  const state = useSelector(actor, (s) => s);
  const open = !state.matches('closed');
  const busy = state.matches('busy');
  const send = (type: 'confirm.cancel' | 'confirm.close') => {
    if (!state.can({ type })) return;
    actor.send({ type });
    onCancelled();
  };
  return (
    <Dialog
      open={open}
      // Escape and outside clicks are refused while busy, as the buttons are.
      onClose={() => send('confirm.close')}
      className="fixed inset-0 z-50"
    >
      <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-lg bg-white p-6 shadow-xl" aria-busy={busy}>
          <DialogTitle className="text-lg font-bold text-slate-900">
            {state.context.title}
          </DialogTitle>
          <p className="mt-2 text-slate-700">{state.context.message}</p>
          {state.context.hasError ? (
            <div className="mt-4">
              <Alert tone="danger">
                {state.context.errorMessage ?? t('confirm.generic_error')}
              </Alert>
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
              disabled={!state.can({ type: 'confirm.cancel' })}
              onClick={() => send('confirm.cancel')}
            >
              {t('confirm.cancel')}
            </Button>
            <Button
              variant={options?.tone === 'danger' ? 'danger' : 'primary'}
              disabled={!state.can({ type: 'confirm.accept' })}
              onClick={() => actor.send({ type: 'confirm.accept' })}
            >
              {options?.confirmLabel ?? t('confirm.confirm')}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
